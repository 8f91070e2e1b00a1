// A stand-in for the CUDA runtime, for the tracer's CPU tests: the calls a
// program makes, with CUDA's names and rules (memory from cudaMallocHost is
// pinned, cudaFreeHost fails on anything else, the null stream is the legacy
// default stream), recorded by the tracer's own recorder as the injection
// library records the real ones. No GPU work happens.
#ifndef FAKE_CUDART_H
#define FAKE_CUDART_H

#include <cstddef>

typedef struct FakeStream *cudaStream_t;
/// The per-thread default stream's handle, as CUDA's.
#define cudaStreamPerThread ((cudaStream_t)0x2)
typedef struct FakeEvent *cudaEvent_t;
typedef void (*cudaHostFn_t)(void *UserData);
enum cudaMemcpyKind {
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDefault = 4
};
/// What a query returns while work is in flight.
constexpr int cudaErrorNotReady = 600;

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
int cudaMemcpy2DAsync(void *Dst, size_t DstPitch, const void *Src,
                      size_t SrcPitch, size_t Width, size_t Height,
                      cudaMemcpyKind Kind, cudaStream_t Stream);
/// The calling thread's device from now on (each device its own context,
/// with its own legacy default stream); 0 at first.
int cudaSetDevice(int Device);
/// A kernel launch (what <<<..., stream>>> becomes).
int cudaLaunchKernel(const void *Func, cudaStream_t Stream);
int cudaStreamCreate(cudaStream_t *Stream);
int cudaStreamCreateWithFlags(cudaStream_t *Stream, unsigned Flags);
int cudaStreamSynchronize(cudaStream_t Stream);
int cudaDeviceSynchronize();
int cudaEventCreate(cudaEvent_t *Event);
int cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream);
int cudaEventSynchronize(cudaEvent_t Event);
/// The stand-in's GPU finishes nothing by itself: a query says "not ready"
/// until \p Ready is set for the stream (fakeFinish), then "done".
int cudaStreamQuery(cudaStream_t Stream);
int cudaEventQuery(cudaEvent_t Event);
/// Runs \p Fn on another thread, as the driver runs host functions.
int cudaLaunchHostFunc(cudaStream_t Stream, cudaHostFn_t Fn, void *UserData);
/// Stream capture, as CUDA's: a host function launched on a capturing
/// stream is a node of the graph, run at each cudaGraphLaunch (on the
/// calling thread here), not now. A graph is its own executable graph.
typedef struct FakeGraph *cudaGraph_t;
typedef struct FakeGraph *cudaGraphExec_t;
int cudaStreamBeginCapture(cudaStream_t Stream, int Mode);
int cudaStreamEndCapture(cudaStream_t Stream, cudaGraph_t *Graph);
int cudaGraphInstantiate(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                         unsigned long long Flags);
int cudaGraphLaunch(cudaGraphExec_t Graph, cudaStream_t Stream);
/// The stand-in's own: its work on \p Stream is finished (queries succeed).
void fakeFinish(cudaStream_t Stream);
/// Waits until every host function launched so far has run.
void fakeJoinHostFunctions();
/// A kernel faulted: every call from now on fails with
/// cudaErrorIllegalAddress (700), as a real context's do.
void fakeFault();
}

#endif
