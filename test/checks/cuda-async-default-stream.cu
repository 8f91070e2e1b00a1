// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-default-stream' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-default-stream' %s -- %cuda_args | %check_messages %s
// Compiled with nvcc --default-stream per-thread: 0 is the per-thread stream.
// RUN: not %lint_bin --checks='-*,cuda-async-default-stream' %s -- %cuda_args -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 | FileCheck %s --check-prefix=PER-THREAD --implicit-check-not='{{warning|note|error}}:'
// RUN: %tidy --checks='-*,cuda-async-default-stream' %s -- %cuda_args -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 | FileCheck %s --check-prefix=PER-THREAD --implicit-check-not='{{warning|note|error}}:'

#include <cstddef>
#include <cuda.h>

__global__ void kernel(float *x) {}

// ---------------------------------------------------------------------------
// Legacy-stream work that holds back work issued after it on created
// streams: in the next iteration of a loop, or later in the function.

void kernelInTransferLoop(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    kernel<<<1, 256>>>(d);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: kernel launch on the legacy default stream waits for all earlier work on the device, and the work issued after it on created streams waits for it, so they cannot overlap; issue it on a created stream (or cudaStreamPerThread), with an event where later work depends on it [cuda-async-default-stream]
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: work on a created stream issued here waits for it
    kernel<<<1, 256, 0, 0>>>(d);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: kernel launch on the legacy default stream waits for all earlier work
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: work on a created stream issued here waits for it
  }
}

void transfersInLoop(float *d, float *h, int n, cudaStream_t *streams) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' on the legacy default stream waits for all earlier work
    // CHECK-MESSAGES: :[[@LINE+5]]:5: note: work on a created stream issued here waits for it
    cudaMemsetAsync(d, 0, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemsetAsync' on the legacy default stream waits for all earlier work
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: work on a created stream issued here waits for it
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, nullptr);
    kernel<<<1, 256, 0, streams[i % 2]>>>(d);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' on the legacy default stream waits for all earlier work
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: work on a created stream issued here waits for it
  }
}

void launchApiInTransferLoop(float *d, float *h, int n, cudaStream_t s) {
  void *args[] = {&d};
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    cudaLaunchKernel((const void *)kernel, dim3(1), dim3(256), args, 0, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaLaunchKernel' on the legacy default stream waits for all earlier work on the device, and the work issued after it on created streams waits for it, so they cannot overlap; issue it on a created stream (or cudaStreamPerThread), with an event where later work depends on it [cuda-async-default-stream]
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: work on a created stream issued here waits for it
  }
}

void driverLaunchBetweenCreatedStreamWork(CUfunction f, CUdeviceptr d,
                                          void *h) {
  CUstream s;
  cuStreamCreate(&s, 0);
  cuMemcpyHtoDAsync(d, h, 64, s);
  cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, 0, nullptr, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuLaunchKernel' on the legacy default stream waits for all earlier work
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: work on a created stream issued here waits for it
  cuMemcpyDtoHAsync(h, d, 64, s);
}

void betweenCreatedStreamWork(float *d, float *e, float *h) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  kernel<<<1, 256>>>(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch on the legacy default stream waits for all earlier work
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: work on a created stream issued here waits for it
  cudaMemcpyAsync(h, e, 1024, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

// A chain on one buffer: the copy back reads what the legacy kernel wrote
// and must wait for it anyway; nothing could have overlapped.
void dependentChain(float *d, float *h) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  kernel<<<1, 256>>>(d);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}

void besideStreamArray(float *d, float *e, float *h) {
  cudaStream_t streams[2];
  for (int i = 0; i < 2; ++i)
    cudaStreamCreate(&streams[i]);
  kernel<<<1, 32, 0, streams[0]>>>(d);
  cudaMemsetAsync(d, 0, 64, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' on the legacy default stream waits for all earlier work
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: work on a created stream issued here waits for it
  kernel<<<1, 32, 0, streams[1]>>>(e);
}

// cudaStreamLegacy is the legacy stream in every compile mode; in a
// per-thread build, the per-thread stream (0) waits for it too.
void explicitLegacyBetweenCreated(float *d, float *e, float *h,
                                  cudaStream_t s) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, cudaStreamLegacy);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' on the legacy default stream waits for all earlier work
  // CHECK-MESSAGES: :[[@LINE+3]]:3: note: work on a created stream issued here waits for it
  // PER-THREAD: :[[@LINE-3]]:3: warning: 'cudaMemcpyAsync' on the legacy default stream waits for all earlier work
  // PER-THREAD: :[[@LINE+1]]:3: note: work on a created stream issued here waits for it
  kernel<<<1, 256, 0, s>>>(e);
}

// A function of the unit that issues its work on the stream it is given,
// given the legacy stream (mgbench's CopyDev2Dev for the last chunk, a
// launcher given 0): that call is work on the legacy stream.
inline void copyOn(float *dst, const float *src, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, s);
}

void wrapperGivenTheLegacyStream(float **dst, float **src, int chunks,
                                 cudaStream_t s) {
  for (int c = 0; c < chunks; ++c) {
    if (c == chunks - 1)
      copyOn(dst[c], src[c], 64, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'copyOn' on the legacy default stream waits for all earlier work
    else
      copyOn(dst[c], src[c], 64, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: note: work on a created stream issued here waits for it
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the work on a created stream it issues first
  }
}

// The same wrapper given created streams only, or given the legacy stream
// with nothing on a created stream after it: nothing held back.
void wrapperGivenCreatedStreams(float **dst, float **src, int chunks,
                                cudaStream_t s, cudaStream_t t) {
  for (int c = 0; c < chunks; ++c)
    copyOn(dst[c], src[c], 64, c % 2 ? s : t);
  copyOn(dst[0], src[0], 64, 0);
}

template <typename T> void templateLoop(T *d, T *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, sizeof(T), cudaMemcpyHostToDevice);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' on the legacy default stream waits for all earlier work
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: work on a created stream issued here waits for it
    kernel<<<1, 256, 0, s>>>((float *)d);
  }
}
template void templateLoop<float>(float *, float *, int, cudaStream_t);
template void templateLoop<int>(int *, int *, int, cudaStream_t);

// ---------------------------------------------------------------------------
// Negative cases: none of these is a finding.

// Kernel-only loops on the default stream.
void kernelOnlyLoop(float *d, int n) {
  for (int i = 0; i < n; ++i)
    kernel<<<1, 256>>>(d);
  cudaDeviceSynchronize();
}

// A lone transfer outside any loop, with no created stream around.
void loneTransfer(float *d, float *h) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, 0);
  kernel<<<1, 256>>>(d);
  cudaDeviceSynchronize();
}

// cudaStreamPerThread is a choice, not the legacy stream.
void perThreadStream(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, cudaStreamPerThread);
    kernel<<<1, 256, 0, cudaStreamPerThread>>>(d);
  }
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}

// Created streams everywhere.
void createdStreams(float *d, float *h, int n) {
  cudaStream_t streams[4];
  for (int i = 0; i < 4; ++i)
    cudaStreamCreate(&streams[i]);
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, streams[i % 4]);
    kernel<<<1, 256, 0, streams[i % 4]>>>(d);
  }
}

// Blocking copies are not async operations.
void blockingCopiesInLoop(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpy(d, h, 1024, cudaMemcpyHostToDevice);
}

// A kernel in a loop whose transfers are outside it.
void transfersOutsideTheKernelLoop(float *d, float *h, int n) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, 0);
  for (int i = 0; i < n; ++i)
    kernel<<<1, 256>>>(d);
}

// A lambda in a loop is a function of its own.
void lambdaInLoop(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    auto upload = [=] { cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, 0); };
    (void)upload;
  }
}

// The stream is a parameter: it may be a created one.
void streamParameter(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}

// A macro's do { } while (0) is no loop.
#define UPLOAD(d, h) do { cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, 0); } while (0)
void macroLoop(float *d, float *h) { UPLOAD(d, h); }

template <typename T> void neverInstantiated(T *d, T *h, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(d, h, sizeof(T), cudaMemcpyHostToDevice);
}

// One stream for everything, the legacy one: there is no other stream to
// overlap with (a design question, not this check's).
void legacyOnlyLoop(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, 0);
    kernel<<<1, 256>>>(d);
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost);
  }
  cudaDeviceSynchronize();
}

// A final join on the legacy stream after a fan-out, with nothing after it
// but a wait: it holds nothing back, and a created stream there would race.
void finalJoin(float *d, float *result, int n, cudaStream_t *streams) {
  for (int i = 0; i < n; ++i)
    kernel<<<1, 256, 0, streams[i]>>>(d + i);
  kernel<<<1, 32>>>(d);
  cudaMemcpy(result, d, 4, cudaMemcpyDeviceToHost);
}

// The host waits for the legacy work before the next created-stream work.
void waitedForBeforeMoreWork(float *d, float *h, int n, cudaStream_t s) {
  cudaEvent_t stop;
  cudaEventCreate(&stop);
  for (int i = 0; i < n; ++i) {
    kernel<<<1, 256>>>(d);
    cudaMemcpy(h, d, 1024, cudaMemcpyDeviceToHost);
  }
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  kernel<<<1, 256>>>(d);
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  kernel<<<1, 256>>>(d);
  cudaDeviceSynchronize();
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}

// A stream created non-blocking does not wait for the legacy stream.
void nonBlockingStream(float *d, float *h, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    kernel<<<1, 256>>>(d);
  }
}

// The two arms of an if/else are one launch: a pass takes one of them.
void exclusiveArms(float *d, float *h, int n, cudaStream_t s, bool streams) {
  for (int i = 0; i < n; ++i) {
    if (streams)
      kernel<<<1, 256, 0, s>>>(d);
    else
      kernel<<<1, 256>>>(d);
  }
}

// Unless the condition changes with the loop's counter: the legacy launch
// of one iteration holds back the next iteration's launch on its stream.
void armChosenByTheCounter(float **d, int n, cudaStream_t *s) {
  for (int i = 0; i < n; ++i) {
    if (i == 3)
      kernel<<<1, 256>>>(d[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: kernel launch on the legacy default stream waits for all earlier work on the device, and the work issued after it on created streams waits for it, so they cannot overlap; issue it on a created stream (or cudaStreamPerThread), with an event where later work depends on it [cuda-async-default-stream]
    // CHECK-MESSAGES: :[[@LINE+2]]:7: note: work on a created stream issued here waits for it
    else
      kernel<<<1, 256, 0, s[i]>>>(d[i]);
  }
}

// Launches in device code (dynamic parallelism) are not host launches.
__device__ void launchFromDevice(float *d) {}
__global__ void parent(float *d, cudaStream_t s) {
  launchFromDevice(d);
}

// A legacy launch whose output the created-stream work after it, in the same
// step, reads (a time loop seeding its field in step 0): that work must wait
// for it anyway; the legacy stream's ordering is the dependency.
__global__ void step2d(float *out, const float *in) {}
void seedThenStep(float **u1, float **u2, cudaStream_t *halo,
                  cudaStream_t *body, int ngpus, int nsteps) {
  for (int t = 0; t < nsteps; ++t) {
    if (t == 0)
      kernel<<<1, 32>>>(u2[0]);
    for (int i = 0; i < ngpus; ++i) {
      step2d<<<1, 32, 0, halo[i]>>>(u1[i], u2[i]);
      step2d<<<1, 32, 0, body[i]>>>(u1[i], u2[i]);
    }
    // The halo exchange is on a stream whose kernels read the seed: ordered
    // after it by its own stream.
    cudaMemcpyAsync(u1[1], u1[0], 64, cudaMemcpyDefault, halo[0]);
    cudaDeviceSynchronize();
  }
}

// The same seed, but the work after it reads other buffers: it could have
// run beside the seed.
void seedBesideIndependentWork(float *u, float *v, float *w, cudaStream_t s,
                               int nsteps) {
  for (int t = 0; t < nsteps; ++t) {
    if (t == 0)
      kernel<<<1, 32>>>(u);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: kernel launch on the legacy default stream waits for all earlier work on the device, and the work issued after it on created streams waits for it, so they cannot overlap; issue it on a created stream (or cudaStreamPerThread), with an event where later work depends on it [cuda-async-default-stream]
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: work on a created stream issued here waits for it
    step2d<<<1, 32, 0, s>>>(v, w);
    cudaDeviceSynchronize();
  }
}

// Streams kept in a container are created streams as an array's are
// (cuda-samples cudaGraphsPerfScaling: a global std::vector<cudaStream_t>).
namespace std {
template <class T> struct vector {
  T &operator[](size_t);
  void resize(size_t);
};
} // namespace std
std::vector<cudaStream_t> pool;

void legacyBeforePoolWork(float *u, float *v) {
  kernel<<<1, 32>>>(u);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch on the legacy default stream waits for all earlier work on the device
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: work on a created stream issued here waits for it
  kernel<<<1, 32, 0, pool[1]>>>(v);
  cudaStreamSynchronize(pool[1]);
}

// Non-blocking streams in a container do not wait for the legacy stream.
std::vector<cudaStream_t> independent;
void createIndependent() {
  independent.resize(2);
  cudaStreamCreateWithFlags(&independent[0], cudaStreamNonBlocking);
}
void legacyBeforeIndependentWork(float *u, float *v) {
  kernel<<<1, 32>>>(u);
  kernel<<<1, 32, 0, independent[0]>>>(v);
  cudaStreamSynchronize(independent[0]);
}
