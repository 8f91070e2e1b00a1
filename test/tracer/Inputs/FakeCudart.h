// A stand-in for the CUDA runtime, for the tracer's CPU tests: the calls a
// program makes, with CUDA's names and rules (memory from cudaMallocHost is
// pinned, cudaFreeHost fails on anything else, the null stream is the legacy
// default stream), recorded by the tracer's own recorder as the injection
// library records the real ones. No GPU work happens.
#ifndef FAKE_CUDART_H
#define FAKE_CUDART_H

#include <cstddef>

typedef struct FakeStream *cudaStream_t;
typedef struct FakeEvent *cudaEvent_t;
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };

extern "C" {
int cudaMallocHost(void **Ptr, size_t Size);
int cudaFreeHost(void *Ptr);
int cudaMalloc(void **Ptr, size_t Size);
int cudaFree(void *Ptr);
int cudaHostRegister(void *Ptr, size_t Size, unsigned Flags);
int cudaHostUnregister(void *Ptr);
int cudaMemcpyAsync(void *Dst, const void *Src, size_t Size,
                    cudaMemcpyKind Kind, cudaStream_t Stream);
int cudaMemcpy(void *Dst, const void *Src, size_t Size, cudaMemcpyKind Kind);
/// A kernel launch (what <<<..., stream>>> becomes).
int cudaLaunchKernel(const void *Func, cudaStream_t Stream);
int cudaStreamCreate(cudaStream_t *Stream);
int cudaStreamCreateWithFlags(cudaStream_t *Stream, unsigned Flags);
int cudaStreamSynchronize(cudaStream_t Stream);
int cudaDeviceSynchronize();
int cudaEventCreate(cudaEvent_t *Event);
int cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream);
int cudaEventSynchronize(cudaEvent_t Event);
}

#endif
