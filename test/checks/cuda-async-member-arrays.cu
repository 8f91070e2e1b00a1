// Member arrays of pointers ('float *slots[4]'): every element, in every
// object, shares one summary of what the translation unit stores there, as
// the elements of a global array of pointers do. A slot pinned in one
// function and released or copied in another is followed; a member array
// written whole, through a decayed pointer or by another unit, is not.
// RUN: not %lint --checks='-*,cuda-async-dealloc-mismatch,cuda-async-pageable-copy' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-dealloc-mismatch,cuda-async-pageable-copy' %s -- %cuda_args | %check_messages %s

#include <cstdlib>

struct Ring {
  float *slots[4];
  cudaStream_t stream;
};

void setupRing(Ring *r, size_t n) {
  for (int i = 0; i < 4; ++i)
    cudaMallocHost((void **)&r->slots[i], n);
}

void teardownRing(Ring *r) {
  for (int i = 0; i < 4; ++i)
    free(r->slots[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases pinned memory; release it with 'cudaFreeHost' [cuda-async-dealloc-mismatch]
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: pinned memory allocated here with 'cudaMallocHost'
}

void uploadRing(Ring *r, float *d, size_t n) {
  for (int i = 0; i < 4; ++i)
    cudaMemcpyAsync(d + i * n, r->slots[i], n, cudaMemcpyHostToDevice,
                    r->stream);
}

struct Stage {
  float *bufs[2];
};

void setupStage(Stage &st, size_t n) {
  for (int i = 0; i < 2; ++i)
    st.bufs[i] = (float *)malloc(n);
}

void uploadStage(Stage &st, float *d, size_t n, cudaStream_t s) {
  for (int i = 0; i < 2; ++i)
    cudaMemcpyAsync(d, st.bufs[i], n, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous
  // CHECK-MESSAGES: :[[@LINE-7]]:27: note: pageable memory allocated here with 'malloc'
  cudaStreamSynchronize(s);
  for (int i = 0; i < 2; ++i)
    free(st.bufs[i]);
}

// One slot pinned, the other pageable: which one a slot is, unknown.
struct Mixed {
  float *halves[2];
};

void setupMixed(Mixed &m, size_t n) {
  cudaMallocHost((void **)&m.halves[0], n);
  m.halves[1] = (float *)malloc(n);
}

void uploadMixed(Mixed &m, float *d, size_t n, int which, cudaStream_t s) {
  cudaMemcpyAsync(d, m.halves[which], n, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
}

// Written whole through a decayed pointer by a function of another unit.
struct Filled {
  float *parts[3];
};
void fillParts(float **parts, int count);

void setupFilled(Filled &f, size_t n) {
  cudaMallocHost((void **)&f.parts[0], n);
  fillParts(f.parts + 1, 2);
}

void releaseFilled(Filled &f) {
  for (int i = 0; i < 3; ++i)
    free(f.parts[i]);
}

// Initialized whole with pointers from elsewhere.
struct Given {
  float *views[2];
};
float *externalBuffer(int i);

void releaseGiven(size_t n) {
  Given g = {{externalBuffer(0), externalBuffer(1)}};
  cudaMallocHost((void **)&g.views[0], n);
  free(g.views[1]);
}

// An element's address handed to another unit's allocator.
struct Pool {
  float *blocks[8];
};
void poolAllocate(float **out, size_t n);

void setupPool(Pool &p, size_t n) {
  for (int i = 0; i < 8; ++i)
    poolAllocate(&p.blocks[i], n);
}

void releasePool(Pool &p) {
  for (int i = 0; i < 8; ++i)
    free(p.blocks[i]);
}
