// Work GPU libraries enqueue: cuBLAS on the stream its handle is bound to,
// NCCL and CUB on the stream they are given, graph launches. A loop over
// such streams can overlap its iterations as a loop of kernels can. Any
// other warning or note fails.
// REQUIRES: cuda-toolkit
// RUN: not %lint_toolkit --checks='-*,cuda-async-sync-in-loop' %s | %check_messages %s
// RUN: %tidy_toolkit --checks='-*,cuda-async-sync-in-loop' %s -- %toolkit_args | %check_messages %s

#include <cstdlib>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nccl.h>

// ---------------------------------------------------------------------------
// Serialized: each iteration waits for the library work it just issued.

void gemmPerStream(cublasHandle_t h, cudaStream_t *streams, const float *A,
                   const float *B, float *C, int n, int batches) {
  const float one = 1.0f, zero = 0.0f;
  for (int i = 0; i < batches; ++i) {
    cublasSetStream(h, streams[i % 4]);
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero,
                C + i * n * n, n);
    cudaStreamSynchronize(streams[i % 4]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration, so the iterations cannot overlap; move the wait after the loop, or wait for the previous iteration's work (double buffering) [cuda-async-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

void handlePerStream(cublasHandle_t *handles, cudaStream_t *streams,
                     const float *x, float *y, int n, int batches) {
  const float alpha = 2.0f;
  for (int i = 0; i < batches; ++i) {
    cublasSetStream(handles[i], streams[i]);
    cublasSaxpy(handles[i], n, &alpha, x, 1, y + i * n, 1);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
  }
}

void allReducePerStream(ncclComm_t *comms, cudaStream_t *streams, float **buf,
                        size_t count, int gpus) {
  for (int g = 0; g < gpus; ++g) {
    ncclAllReduce(buf[g], buf[g], count, ncclFloat, ncclSum, comms[g],
                  streams[g]);
    cudaStreamSynchronize(streams[g]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

void graphPerStream(cudaGraphExec_t *graphs, cudaStream_t *streams, int n) {
  for (int i = 0; i < n; ++i) {
    cudaGraphLaunch(graphs[i], streams[i]);
    cudaStreamSynchronize(streams[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
  }
}

// ---------------------------------------------------------------------------
// Not serialized, or nothing to overlap.

// One handle on one stream: the iterations run in order whatever the host
// does (a timing loop).
void oneStream(cublasHandle_t h, cudaStream_t s, const float *x, float *y,
               int n, int reps) {
  const float alpha = 2.0f;
  cublasSetStream(h, s);
  for (int r = 0; r < reps; ++r) {
    cublasSaxpy(h, n, &alpha, x, 1, y, 1);
    cudaStreamSynchronize(s);
  }
}

// The wait is for another stream than the library's work.
void waitsForAnotherStream(cublasHandle_t h, cudaStream_t *streams,
                           cudaStream_t other, const float *x, float *y,
                           int n, int batches) {
  const float alpha = 2.0f;
  for (int i = 0; i < batches; ++i) {
    cublasSetStream(h, streams[i % 2]);
    cublasSaxpy(h, n, &alpha, x, 1, y + i * n, 1);
    cudaStreamSynchronize(other);
  }
}

// Configuration calls enqueue nothing.
void configurationOnly(cublasHandle_t h, cudaStream_t *streams, int n) {
  for (int i = 0; i < n; ++i) {
    cublasSetStream(h, streams[i]);
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    cudaStreamSynchronize(streams[i]);
  }
}

// A handle never bound in this function: its stream is not known.
void handleBoundElsewhere(cublasHandle_t h, cudaStream_t *streams,
                          const float *x, float *y, int n, int batches) {
  const float alpha = 2.0f;
  for (int i = 0; i < batches; ++i) {
    cublasSaxpy(h, n, &alpha, x, 1, y + i * n, 1);
    cudaStreamSynchronize(streams[i]);
  }
}

// A convergence loop over a library's result.
void convergence(cublasHandle_t h, cudaStream_t *streams, const float *x,
                 float *norm_h, int n) {
  float norm = 1.0f;
  for (int i = 0; norm > 1e-3f; ++i) {
    cublasSetStream(h, streams[i % 2]);
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    cublasSnrm2(h, n, x, 1, norm_h);
    cudaStreamSynchronize(streams[i % 2]);
    norm = *norm_h;
  }
}

// The library's status, checked by an error macro that leaves the program,
// is no result the loop needs (hpc2n's multi_gemm, held back): the wait
// is still per iteration.
#define CHECK_CUBLAS(exp)                                                      \
  {                                                                            \
    cublasStatus_t ret = (exp);                                                \
    if (ret != CUBLAS_STATUS_SUCCESS)                                          \
      exit(1);                                                                 \
  }

void checkedGemmPerStream(cublasHandle_t h, cudaStream_t *streams,
                          const float *A, const float *B, float *C, int n,
                          int batches) {
  const float one = 1.0f, zero = 0.0f;
  for (int i = 0; i < batches; ++i) {
    CHECK_CUBLAS(cublasSetStream(h, streams[i]));
    CHECK_CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n,
                             B, n, &zero, C + i * n * n, n));
    cudaStreamSynchronize(streams[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:18: note: it waits for this asynchronous operation
  }
}

// The same check around a norm the loop tests: still a convergence loop.
void checkedConvergence(cublasHandle_t h, cudaStream_t *streams, const float *x,
                        float *norm_h, int n) {
  float norm = 1.0f;
  for (int i = 0; norm > 1e-3f; ++i) {
    CHECK_CUBLAS(cublasSetStream(h, streams[i % 2]));
    CHECK_CUBLAS(cublasSnrm2(h, n, x, 1, norm_h));
    cudaStreamSynchronize(streams[i % 2]);
    norm = *norm_h;
  }
}

// ---------------------------------------------------------------------------
// Stream capture, fork and join: work that cannot overlap across iterations.

__global__ void step(float *x) {}

// Captured on the first pass (recorded into a graph, not run), then the
// graph is launched on one stream: one stream per iteration.
void captureOnceLaunchEachIteration(float *d, cudaStream_t *streams,
                                    cudaEvent_t forked, cudaEvent_t joined,
                                    int n) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  bool created = false;
  for (int i = 0; i < n; ++i) {
    if (!created) {
      cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal);
      step<<<1, 256, 0, streams[0]>>>(d);
      cudaEventRecord(forked, streams[0]);
      cudaStreamWaitEvent(streams[1], forked, 0);
      step<<<1, 256, 0, streams[1]>>>(d);
      cudaEventRecord(joined, streams[1]);
      cudaStreamWaitEvent(streams[0], joined, 0);
      cudaStreamEndCapture(streams[0], &graph);
      cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
      created = true;
    }
    cudaGraphLaunch(exec, streams[0]);
    cudaStreamSynchronize(streams[0]);
  }
}

// Forked from streams[0] and joined back each iteration: the next
// iteration's work follows this one's on the GPU whatever the host does.
void forkAndJoin(float *d, cudaStream_t *streams, cudaEvent_t forked,
                 cudaEvent_t joined, int n) {
  for (int i = 0; i < n; ++i) {
    step<<<1, 256, 0, streams[0]>>>(d);
    cudaEventRecord(forked, streams[0]);
    cudaStreamWaitEvent(streams[1], forked, 0);
    step<<<1, 256, 0, streams[1]>>>(d);
    cudaEventRecord(joined, streams[1]);
    cudaStreamWaitEvent(streams[0], joined, 0);
    step<<<1, 256, 0, streams[0]>>>(d);
    cudaStreamSynchronize(streams[0]);
  }
}

// Forked but never joined: streams[1]'s work could run beside the next
// iteration's.
void forkWithoutJoin(float *d, cudaStream_t *streams, cudaEvent_t forked,
                     int n) {
  for (int i = 0; i < n; ++i) {
    step<<<1, 256, 0, streams[0]>>>(d);
    cudaEventRecord(forked, streams[0]);
    cudaStreamWaitEvent(streams[1], forked, 0);
    step<<<1, 256, 0, streams[1]>>>(d);
    cudaStreamSynchronize(streams[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: it waits for this asynchronous operation
  }
}

// Two fixed streams, no events between them: they overlap.
void twoFixedStreams(float *d, cudaStream_t *streams, int n) {
  for (int i = 0; i < n; ++i) {
    step<<<1, 256, 0, streams[0]>>>(d);
    step<<<1, 256, 0, streams[1]>>>(d);
    cudaStreamSynchronize(streams[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// One element of an array of streams, always the same: one stream.
void oneFixedElement(float *d, cudaStream_t *streams, int n) {
  for (int i = 0; i < n; ++i) {
    step<<<1, 256, 0, streams[0]>>>(d);
    cudaMemcpyAsync(d, d + 256, 1024, cudaMemcpyDeviceToDevice, streams[0]);
    cudaStreamSynchronize(streams[0]);
  }
}

// Joined back only in some iterations: in the others, streams[1]'s work
// could run beside the next iteration's.
void forkWithConditionalJoin(float *d, cudaStream_t *streams,
                             cudaEvent_t forked, cudaEvent_t joined, int n,
                             bool check) {
  for (int i = 0; i < n; ++i) {
    step<<<1, 256, 0, streams[0]>>>(d);
    cudaEventRecord(forked, streams[0]);
    cudaStreamWaitEvent(streams[1], forked, 0);
    step<<<1, 256, 0, streams[1]>>>(d);
    if (check) {
      cudaEventRecord(joined, streams[1]);
      cudaStreamWaitEvent(streams[0], joined, 0);
    }
    cudaStreamSynchronize(streams[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-10]]:5: note: it waits for this asynchronous operation
  }
}
