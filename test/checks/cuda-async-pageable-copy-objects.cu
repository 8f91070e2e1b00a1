// RUN: not %lint --checks='-*,cuda-async-pageable-copy' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pageable-copy' %s -- %cuda_args | %check_messages %s

// A struct type holds host arrays in one object and device arrays in
// another, so its fields' summaries are unknown; what a function stores into
// one object's fields (a local struct, or the struct a local pointer points
// to) is known for that object until something else may write them.
#include <cuda_runtime.h>
#include <stdlib.h>

struct Arrays {
  float *a;
  float *b;
};

void init(Arrays *arrays);
void refresh();

void hostAndDeviceObjects(cudaStream_t s, size_t n) {
  Arrays h, d;
  h.a = (float *)malloc(n);
  cudaMalloc(&d.a, n);
  cudaMemcpyAsync(d.a, h.a, n, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: pageable memory allocated here with 'malloc'
  cudaMemcpyAsync(h.a, d.a, n, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable host memory is staged and synchronous; {{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-7]]:18: note: pageable memory allocated here with 'malloc'
}

void heapObject(cudaStream_t s, float *dev, size_t n) {
  Arrays *h = (Arrays *)malloc(sizeof(Arrays));
  h->b = (float *)malloc(n);
  cudaMemcpyAsync(dev, h->b, n, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous; {{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: pageable memory allocated here with 'malloc'
}

// Negatives: pinned memory; a call that may rewrite the object; a store
// through an alias; the pointer moved to another object; paths that
// disagree; a call between the store and the copy.
void pinnedObject(cudaStream_t s, float *dev, size_t n) {
  Arrays h;
  cudaMallocHost(&h.a, n);
  cudaMemcpyAsync(dev, h.a, n, cudaMemcpyHostToDevice, s);
}

void passedToCall(cudaStream_t s, float *dev, size_t n) {
  Arrays h;
  h.a = (float *)malloc(n);
  init(&h);
  cudaMemcpyAsync(dev, h.a, n, cudaMemcpyHostToDevice, s);
}

void throughAlias(cudaStream_t s, float *dev, size_t n) {
  Arrays *p = (Arrays *)malloc(sizeof(Arrays));
  Arrays *q = p;
  p->a = (float *)malloc(n);
  cudaMallocHost(&q->a, n);
  cudaMemcpyAsync(dev, p->a, n, cudaMemcpyHostToDevice, s);
}

void pointerMoved(cudaStream_t s, float *dev, size_t n, Arrays *other) {
  Arrays *p = (Arrays *)malloc(sizeof(Arrays));
  p->a = (float *)malloc(n);
  p = other;
  cudaMemcpyAsync(dev, p->a, n, cudaMemcpyHostToDevice, s);
}

void pathsDisagree(cudaStream_t s, float *dev, size_t n, bool pinned) {
  Arrays h;
  if (pinned)
    cudaMallocHost(&h.a, n);
  else
    h.a = (float *)malloc(n);
  cudaMemcpyAsync(dev, h.a, n, cudaMemcpyHostToDevice, s);
}

void callBetween(cudaStream_t s, float *dev, size_t n, Arrays *p) {
  p->a = (float *)malloc(n);
  refresh();
  cudaMemcpyAsync(dev, p->a, n, cudaMemcpyHostToDevice, s);
}

void addressKept(cudaStream_t s, float *dev, size_t n) {
  Arrays h;
  Arrays *keep = &h;
  h.a = (float *)malloc(n);
  cudaMallocHost(&keep->a, n);
  cudaMemcpyAsync(dev, h.a, n, cudaMemcpyHostToDevice, s);
}

// A field read in the very function that stores it, before the copy (an
// argument of a call): its summary is not settled while that function is
// analysed, and must not be remembered as unknown.
static void fill(float *p, size_t n) {
  for (size_t i = 0; i < n / sizeof(float); ++i)
    p[i] = 0;
}
struct Staging {
  float *in;
  void init(float *dev, size_t n, cudaStream_t s);
};
void Staging::init(float *dev, size_t n, cudaStream_t s) {
  in = (float *)malloc(n);
  fill(in, n);
  cudaMemcpyAsync(dev, in, n, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous; {{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: pageable memory allocated here with 'malloc'
}

// CUDA-ZSTD's FSE table: a builder of this file, given the struct by
// reference, fills what its fields point to (through an overload that hands
// it on) and moves no pointer: the fields still hold their new[] arrays.
struct Table {
  unsigned short *state;
  unsigned char *symbol;
  unsigned log;
};
static int buildTable(const short *norm, int n, Table &t) {
  t.log = 5;
  for (int i = 0; i < n; ++i) {
    t.state[i] = (unsigned short)norm[i];
    *t.symbol = 1;
  }
  return 0;
}
static int buildTable(const unsigned short *norm, int n, Table &t) {
  return buildTable((const short *)norm, n, t);
}
void tableUpload(const unsigned short *norm, int n, Table *dev,
                 cudaStream_t s) {
  Table h = {};
  h.state = new unsigned short[n];
  h.symbol = new unsigned char[n];
  buildTable(norm, n, h);
  cudaMemcpyAsync(dev->state, h.state, n * 2, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous{{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-5]]:13: note: pageable memory allocated here with 'new[]'
  delete[] h.state;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: 'h.state' is released here, with no wait for the copy before it
  delete[] h.symbol;
}

// A builder that points a field elsewhere: what the field holds after the
// call is not known.
static void repoint(Table &t, unsigned short *other) { t.state = other; }
void tableRepointed(unsigned short *other, int n, Table *dev, cudaStream_t s) {
  Table h = {};
  h.state = new unsigned short[n];
  repoint(h, other);
  cudaMemcpyAsync(dev->state, h.state, n * 2, cudaMemcpyHostToDevice, s);
}
