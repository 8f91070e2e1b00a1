// A flag tested once to allocate and again to release has one value at both
// tests where nothing writes it in between: each release meets only the
// allocation of its own branch (FixedFlag.h). A local or parameter the
// function does not write after its first test, or a global only main
// writes. Any other flag joins both branches' memory, and the release is
// not reported.
// RUN: not %lint --checks='-*,cuda-async-dealloc-mismatch' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-dealloc-mismatch' %s -- %cuda_args | %check_messages %s

#include <cstdlib>

// simpleZeroCopy's shape: main sets the global once, then tests it to
// allocate and again to release.
bool bPinGenericMemory = false;
// Written outside main: another function may change it between the tests.
static bool toggled = false;
void toggle() { toggled = !toggled; }
// main writes it again between its tests.
static bool reconsidered = false;
// Its address is taken: anything may write it.
static bool escaped = false;
void setThrough(bool *flag) { *flag = true; }

void localFlags(bool pinned, int n) {
  float *a;
  if (pinned)
    cudaMallocHost(&a, n);
  else
    a = (float *)malloc(n);
  if (!pinned)
    cudaFreeHost(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFreeHost' releases pageable memory; release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: pageable memory allocated here with 'malloc'
  else
    free(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-10]]:5: note: pinned memory allocated here with 'cudaMallocHost'

  // Negative: released as allocated, with 'flag != 0' and '== false'.
  bool mapped = n > 64;
  float *b;
  if (mapped != 0)
    cudaHostAlloc(&b, n, cudaHostAllocMapped);
  else
    b = (float *)malloc(n);
  if (mapped == false)
    free(b);
  else
    cudaFreeHost(b);
}

// Negative: the flag changes between the tests.
void rewritten(bool pinned, int n) {
  float *a;
  if (pinned)
    cudaMallocHost(&a, n);
  else
    a = (float *)malloc(n);
  pinned = n > 128;
  if (pinned)
    free(a);
  else
    cudaFreeHost(a);
}

// Negative: its address escapes, so a call may change it.
void escaping(bool pinned, int n) {
  float *a;
  if (pinned)
    cudaMallocHost(&a, n);
  else
    a = (float *)malloc(n);
  setThrough(&pinned);
  if (pinned)
    free(a);
  else
    cudaFreeHost(a);
}

// Negative: a loop's flag is declared again each iteration, after the
// previous iteration's tests.
void perIteration(const int *sizes, int count) {
  for (int i = 0; i < count; ++i) {
    bool pinned = sizes[i] > 64;
    float *a;
    if (pinned)
      cudaMallocHost(&a, sizes[i]);
    else
      a = (float *)malloc(sizes[i]);
    if (pinned)
      cudaFreeHost(a);
    else
      free(a);
  }
}

// Negative: a global that another function writes is not fixed, even in
// a function that does not call it.
void globalWrittenElsewhere(int n) {
  float *a;
  if (toggled)
    cudaMallocHost(&a, n);
  else
    a = (float *)malloc(n);
  if (toggled)
    free(a);
  else
    cudaFreeHost(a);
}

int main(int argc, char **argv) {
  if (argc > 1)
    bPinGenericMemory = reconsidered = true;
  float *a, *a_UA = nullptr;
  if (bPinGenericMemory) {
    a_UA = (float *)malloc(4096 + 4096);
    a = (float *)(((size_t)a_UA + 4095) & ~(size_t)4095);
    cudaHostRegister(a, 4096, cudaHostRegisterMapped);
  } else {
    cudaHostAlloc((void **)&a, 4096, cudaHostAllocMapped);
  }
  if (bPinGenericMemory) {
    cudaHostUnregister(a);
    free(a_UA);
  } else {
    free(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
    // CHECK-MESSAGES: :[[@LINE-8]]:5: note: pinned memory allocated here with 'cudaHostAlloc'
  }

  // Negative: main writes the flag between the tests.
  float *b;
  if (reconsidered)
    cudaMallocHost(&b, 64);
  else
    b = (float *)malloc(64);
  reconsidered = argc > 2;
  if (reconsidered)
    free(b);
  else
    cudaFreeHost(b);

  // Negative: the flag's address is taken.
  setThrough(&escaped);
  float *c;
  if (escaped)
    cudaMallocHost(&c, 64);
  else
    c = (float *)malloc(64);
  if (escaped)
    free(c);
  else
    cudaFreeHost(c);
  toggle();
  return 0;
}
