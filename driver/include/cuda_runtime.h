/*===- cuda_runtime.h - cuda-async-lint's bundled CUDA runtime API --------===*
 *
 * Declarations of the CUDA runtime API that cuda-async-lint parses against
 * when no CUDA toolkit is installed (and that its tests parse against, so
 * they are hermetic). Declarations only, following the toolkit's signatures:
 * enough for host code that streams, copies, allocates and launches to parse
 * as it does with the real headers. Not for compiling programs.
 *
 *===----------------------------------------------------------------------===*/

#ifndef CUDA_ASYNC_LINT_BUNDLED_CUDA_RUNTIME_H
#define CUDA_ASYNC_LINT_BUNDLED_CUDA_RUNTIME_H

/* As the toolkit's headers do: clang's CUDA wrappers of <new> and <cmath>
 * rely on these having been included. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define CUDART_VERSION 13000

/* As the toolkit's headers do for nvcc --default-stream per-thread: the
 * stream-ordered calls become their per-thread variants. */
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define cudaMemcpyAsync cudaMemcpyAsync_ptsz
#define cudaMemcpy2DAsync cudaMemcpy2DAsync_ptsz
#define cudaMemcpy3DAsync cudaMemcpy3DAsync_ptsz
#define cudaMemcpyToSymbolAsync cudaMemcpyToSymbolAsync_ptsz
#define cudaMemcpyFromSymbolAsync cudaMemcpyFromSymbolAsync_ptsz
#define cudaMemcpy2DToArrayAsync cudaMemcpy2DToArrayAsync_ptsz
#define cudaMemcpy2DFromArrayAsync cudaMemcpy2DFromArrayAsync_ptsz
#define cudaMemsetAsync cudaMemsetAsync_ptsz
#define cudaMemset2DAsync cudaMemset2DAsync_ptsz
#define cudaMemcpy cudaMemcpy_ptds
#define cudaMemset cudaMemset_ptds
#define cudaStreamSynchronize cudaStreamSynchronize_ptsz
#define cudaStreamQuery cudaStreamQuery_ptsz
#define cudaEventRecord cudaEventRecord_ptsz
#define cudaStreamWaitEvent cudaStreamWaitEvent_ptsz
#define cudaLaunchKernel cudaLaunchKernel_ptsz
#define cudaStreamBeginCapture cudaStreamBeginCapture_ptsz
#define cudaStreamEndCapture cudaStreamEndCapture_ptsz
#define cudaStreamIsCapturing cudaStreamIsCapturing_ptsz
#define cudaGraphLaunch cudaGraphLaunch_ptsz
#endif

#if defined(__clang__) && defined(__CUDA__)
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#include <__clang_cuda_builtin_vars.h>
#else
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorNotReady = 600,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3,
};

struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;

enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};

struct cudaPitchedPtr {
  void *ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};
struct cudaExtent {
  size_t width;
  size_t height;
  size_t depth;
};
struct cudaPos {
  size_t x;
  size_t y;
  size_t z;
};
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};

/* driver_functions.h's builders of the 3D structs. */
static __inline__ __host__ struct cudaPitchedPtr
make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
  struct cudaPitchedPtr s;
  s.ptr = d;
  s.pitch = p;
  s.xsize = xsz;
  s.ysize = ysz;
  return s;
}
static __inline__ __host__ struct cudaPos make_cudaPos(size_t x, size_t y,
                                                       size_t z) {
  struct cudaPos p;
  p.x = x;
  p.y = y;
  p.z = z;
  return p;
}
static __inline__ __host__ struct cudaExtent make_cudaExtent(size_t w,
                                                             size_t h,
                                                             size_t d) {
  struct cudaExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

struct dim3 {
  unsigned int x, y, z;
#ifdef __cplusplus
  __host__ __device__ dim3(unsigned int vx = 1, unsigned int vy = 1,
                           unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
#endif
};
#ifndef __cplusplus
typedef struct dim3 dim3;
#endif

/* The commonly read fields of the device properties. */
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int asyncEngineCount;
  int concurrentKernels;
  int unifiedAddressing;
  int canMapHostMemory;
  int managedMemory;
  int pageableMemoryAccess;
  int memoryBusWidth;
  int l2CacheSize;
};

#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02

#ifdef __cplusplus
#define CUDA_ASYNC_LINT_DEFAULT(x) = x
#else
#define CUDA_ASYNC_LINT_DEFAULT(x)
#endif

/* Devices and errors. */
__host__ cudaError_t cudaGetLastError(void);
__host__ cudaError_t cudaPeekAtLastError(void);
__host__ const char *cudaGetErrorString(cudaError_t error);
__host__ const char *cudaGetErrorName(cudaError_t error);
__host__ cudaError_t cudaSetDevice(int device);
__host__ cudaError_t cudaGetDevice(int *device);
__host__ cudaError_t cudaGetDeviceCount(int *count);
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop,
                                             int device);
__host__ cudaError_t cudaSetDeviceFlags(unsigned int flags);
__host__ cudaError_t cudaDriverGetVersion(int *driverVersion);
__host__ cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaThreadSynchronize(void);
__host__ cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
__host__ cudaError_t cudaPointerGetAttributes(
    struct cudaPointerAttributes *attributes, const void *ptr);

/* Memory. */
__host__ cudaError_t cudaMalloc(void **devPtr, size_t size);
__host__ cudaError_t cudaMallocAsync(void **devPtr, size_t size,
                                     cudaStream_t hStream);
__host__ cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
                                             cudaMemPool_t memPool,
                                             cudaStream_t stream);
__host__ cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch,
                                     size_t width, size_t height);
__host__ cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
                                  struct cudaExtent extent);
__host__ cudaError_t cudaMallocManaged(
    void **devPtr, size_t size,
    unsigned int flags CUDA_ASYNC_LINT_DEFAULT(cudaMemAttachGlobal));
__host__ cudaError_t cudaMallocHost(void **ptr, size_t size);
__host__ cudaError_t cudaHostAlloc(void **pHost, size_t size,
                                   unsigned int flags);
__host__ cudaError_t cudaFree(void *devPtr);
__host__ cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream);
__host__ cudaError_t cudaFreeHost(void *ptr);
__host__ cudaError_t cudaHostRegister(void *ptr, size_t size,
                                      unsigned int flags);
__host__ cudaError_t cudaHostUnregister(void *ptr);
__host__ cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
__host__ cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost,
                                              unsigned int flags);

/* Copies and memsets. */
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind,
                                     cudaStream_t stream
                                         CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                                  size_t spitch, size_t width, size_t height,
                                  enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch,
                                       const void *src, size_t spitch,
                                       size_t width, size_t height,
                                       enum cudaMemcpyKind kind,
                                       cudaStream_t stream
                                           CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
__host__ cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
                                       cudaStream_t stream
                                           CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaMemcpyToSymbol(
    const void *symbol, const void *src, size_t count,
    size_t offset CUDA_ASYNC_LINT_DEFAULT(0),
    enum cudaMemcpyKind kind CUDA_ASYNC_LINT_DEFAULT(cudaMemcpyHostToDevice));
__host__ cudaError_t cudaMemcpyFromSymbol(
    void *dst, const void *symbol, size_t count,
    size_t offset CUDA_ASYNC_LINT_DEFAULT(0),
    enum cudaMemcpyKind kind CUDA_ASYNC_LINT_DEFAULT(cudaMemcpyDeviceToHost));
__host__ cudaError_t cudaMemcpyToSymbolAsync(
    const void *symbol, const void *src, size_t count, size_t offset,
    enum cudaMemcpyKind kind, cudaStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaMemcpyFromSymbolAsync(
    void *dst, const void *symbol, size_t count, size_t offset,
    enum cudaMemcpyKind kind, cudaStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaMemcpy2DToArrayAsync(
    cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
    size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
    cudaStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaMemcpy2DFromArrayAsync(
    void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
    size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
    cudaStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
                                    int srcDevice, size_t count);
__host__ cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice,
                                         const void *src, int srcDevice,
                                         size_t count,
                                         cudaStream_t stream
                                             CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__host__ cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                     cudaStream_t stream
                                         CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value,
                                  size_t width, size_t height);
__host__ cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
                                       size_t width, size_t height,
                                       cudaStream_t stream
                                           CUDA_ASYNC_LINT_DEFAULT(0));

/* Streams and events. */
__host__ cudaError_t cudaStreamCreate(cudaStream_t *pStream);
__host__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                               unsigned int flags);
__host__ cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
                                                  unsigned int flags,
                                                  int priority);
__host__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ cudaError_t cudaStreamQuery(cudaStream_t stream);
__host__ cudaError_t cudaStreamGetFlags(cudaStream_t hStream,
                                        unsigned int *flags);
typedef void (*cudaHostFn_t)(void *userData);
__host__ cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
                                        void *userData);
__host__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream,
                                         cudaEvent_t event,
                                         unsigned int flags
                                             CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
__host__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
                                              unsigned int flags);
__host__ cudaError_t cudaEventRecord(cudaEvent_t event,
                                     cudaStream_t stream
                                         CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaEventRecordWithFlags(
    cudaEvent_t event, cudaStream_t stream CUDA_ASYNC_LINT_DEFAULT(0),
    unsigned int flags CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaEventQuery(cudaEvent_t event);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                          cudaEvent_t end);

/* Stream capture and graphs. */
__host__ cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
                                            enum cudaStreamCaptureMode mode);
__host__ cudaError_t cudaStreamEndCapture(cudaStream_t stream,
                                          cudaGraph_t *pGraph);
__host__ cudaError_t
cudaStreamIsCapturing(cudaStream_t stream,
                      enum cudaStreamCaptureStatus *pCaptureStatus);
__host__ cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
__host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
                                          cudaGraph_t graph,
                                          unsigned long long flags
                                              CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
                                                   cudaGraph_t graph,
                                                   unsigned long long flags
                                                       CUDA_ASYNC_LINT_DEFAULT(
                                                           0));
__host__ cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec,
                                     cudaStream_t stream);
__host__ cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec,
                                     cudaStream_t stream);
__host__ cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
__host__ cudaError_t cudaGraphDestroy(cudaGraph_t graph);

/* Kernel launches. clang lowers <<<grid, block, shmem, stream>>> to one of
 * these, by the CUDA version it assumes. */
__host__ cudaError_t cudaLaunchKernel(const void *func, struct dim3 gridDim,
                                      struct dim3 blockDim, void **args,
                                      size_t sharedMem, cudaStream_t stream);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *func,
                                                 struct dim3 gridDim,
                                                 struct dim3 blockDim,
                                                 void **args, size_t sharedMem,
                                                 cudaStream_t stream);
__host__ __device__ unsigned __cudaPushCallConfiguration(
    struct dim3 gridDim, struct dim3 blockDim,
    size_t sharedMem CUDA_ASYNC_LINT_DEFAULT(0),
    struct CUstream_st *stream CUDA_ASYNC_LINT_DEFAULT(0));
__host__ cudaError_t cudaConfigureCall(struct dim3 gridDim,
                                       struct dim3 blockDim,
                                       size_t sharedMem
                                           CUDA_ASYNC_LINT_DEFAULT(0),
                                       cudaStream_t stream
                                           CUDA_ASYNC_LINT_DEFAULT(0));

#ifdef __cplusplus
} /* extern "C" */

/* The typed overloads of cuda_runtime.h: cudaMallocHost(&p, n) with any T*. */
template <class T>
static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size,
                                                      unsigned int flags = 0) {
  return flags ? ::cudaHostAlloc((void **)(void *)ptr, size, flags)
               : ::cudaMallocHost((void **)(void *)ptr, size);
}
template <class T>
static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size,
                                                     unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMallocManaged(T **devPtr, size_t size,
                  unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **devPtr, size_t size,
                                                       cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)devPtr, size, stream);
}
/* CUDA 11's five-argument spelling, kept by cuda_runtime.h. */
static __inline__ __host__ cudaError_t
cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                     cudaGraphNode_t *pErrorNode, char *pLogBuffer,
                     size_t bufferSize) {
  (void)pErrorNode;
  (void)pLogBuffer;
  (void)bufferSize;
  return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}
#endif

#undef CUDA_ASYNC_LINT_DEFAULT

#endif /* CUDA_ASYNC_LINT_BUNDLED_CUDA_RUNTIME_H */
