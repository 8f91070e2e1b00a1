// cuBLAS's own asynchronous transfers (cublasSetMatrixAsync, ...) are
// copies on the stream they are given: from or into pageable memory they
// are staged and synchronous; their host side is in flight until then.
// Against the real toolkit's cublas_v2.h.
// REQUIRES: cuda-toolkit
// RUN: not %lint_toolkit --checks='-*,cuda-async-pageable-copy,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy_toolkit --checks='-*,cuda-async-pageable-copy,cuda-async-unsynchronized-access' %s -- %toolkit_args | %check_messages %s

#include <cstdlib>
#include <cublas_v2.h>
#include <vector>

void matrixFromMalloc(float *dA, int rows, int cols, cudaStream_t s) {
  float *a = (float *)malloc(sizeof(float) * rows * cols);
  cublasSetMatrixAsync(rows, cols, sizeof(float), a, rows, dA, rows, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cublasSetMatrixAsync' from pageable host memory is staged and synchronous{{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  cudaStreamSynchronize(s);
  free(a);
}

void vectorIntoAVector(const float *dX, int n, cudaStream_t s) {
  std::vector<float> x(n);
  cublasGetVectorAsync(n, sizeof(float), dX, 1, x.data(), 1, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cublasGetVectorAsync' into pageable host memory is staged and synchronous{{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: the storage of 'x' is pageable memory
  cudaStreamSynchronize(s);
}

void sixtyFourBitForms(float *dA, int64_t rows, int64_t cols, cudaStream_t s) {
  float *a = new float[rows * cols];
  cublasSetMatrixAsync_64(rows, cols, sizeof(float), a, rows, dA, rows, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cublasSetMatrixAsync_64' from pageable host memory is staged and synchronous{{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: pageable memory allocated here with 'new[]'
  cudaStreamSynchronize(s);
  delete[] a;
}

// Pinned memory overlaps; reading it before the stream is synchronized is
// a race.
float pinnedVector(const float *dX, int n, cudaStream_t s) {
  float *x;
  cudaMallocHost(&x, n * sizeof(float));
  cublasGetVectorAsync(n, sizeof(float), dX, 1, x, 1, s);
  float first = x[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'x[0]' is read while 'cublasGetVectorAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  float second = x[1];
  cudaFreeHost(x);
  return first + second;
}
