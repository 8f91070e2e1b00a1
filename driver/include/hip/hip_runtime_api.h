/*===- hip/hip_runtime_api.h - cuda-async-lint's bundled HIP runtime API --===*
 *
 * Declarations of AMD's HIP runtime API that cuda-async-lint parses against
 * when no ROCm is installed (and that its tests parse against, so they are
 * hermetic). Declarations only, following ROCm's signatures: enough for host
 * code that streams, copies, allocates and launches to parse as it does with
 * the real headers. Not for compiling programs.
 *
 *===----------------------------------------------------------------------===*/

#ifndef CUDA_ASYNC_LINT_BUNDLED_HIP_RUNTIME_API_H
#define CUDA_ASYNC_LINT_BUNDLED_HIP_RUNTIME_API_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 2
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000)
#if !defined(__HIP_PLATFORM_AMD__)
#define __HIP_PLATFORM_AMD__ 1
#endif

/* As ROCm's headers do for HIP_API_PER_THREAD_DEFAULT_STREAM (clang's
 * -fgpu-default-stream=per-thread): the stream-ordered calls become their
 * per-thread variants. */
#if defined(HIP_API_PER_THREAD_DEFAULT_STREAM)
#define hipMemcpyAsync hipMemcpyAsync_spt
#define hipMemcpy2DAsync hipMemcpy2DAsync_spt
#define hipMemcpy3DAsync hipMemcpy3DAsync_spt
#define hipMemcpyToSymbolAsync hipMemcpyToSymbolAsync_spt
#define hipMemcpyFromSymbolAsync hipMemcpyFromSymbolAsync_spt
#define hipMemsetAsync hipMemsetAsync_spt
#define hipMemset2DAsync hipMemset2DAsync_spt
#define hipMemcpy hipMemcpy_spt
#define hipMemset hipMemset_spt
#define hipStreamSynchronize hipStreamSynchronize_spt
#define hipStreamQuery hipStreamQuery_spt
#define hipEventRecord hipEventRecord_spt
#define hipStreamWaitEvent hipStreamWaitEvent_spt
#define hipLaunchKernel hipLaunchKernel_spt
#endif

/* clang's HIP mode -include's its wrapper, which defines these; a C++ file
 * that includes this header sees plain host functions. */
#ifndef __host__
#if defined(__clang__) && defined(__HIP__)
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#else
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#endif
#endif
#ifndef __launch_bounds__
#if defined(__clang__) && defined(__HIP__)
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#else
#define __launch_bounds__(...)
#endif
#endif

#ifdef __cplusplus
#define CUDA_ASYNC_LINT_DEFAULT(x) = x
extern "C" {
#else
#define CUDA_ASYNC_LINT_DEFAULT(x)
#endif

typedef enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotReady = 600,
} hipError_t;

typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
} hipMemcpyKind;

typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipMemPoolHandle_t *hipMemPool_t;
typedef void *hipDeviceptr_t;
typedef struct hipArray hipArray;
typedef struct hipArray *hipArray_t;
typedef const struct hipArray *hipArray_const_t;
typedef struct hip_Memcpy2D hip_Memcpy2D;
typedef struct HIP_MEMCPY3D HIP_MEMCPY3D;

typedef struct hipPitchedPtr {
  void *ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
} hipPitchedPtr;
typedef struct hipExtent {
  size_t width;
  size_t height;
  size_t depth;
} hipExtent;
typedef struct hipPos {
  size_t x;
  size_t y;
  size_t z;
} hipPos;
typedef struct hipMemcpy3DParms {
  hipArray_t srcArray;
  struct hipPos srcPos;
  struct hipPitchedPtr srcPtr;
  hipArray_t dstArray;
  struct hipPos dstPos;
  struct hipPitchedPtr dstPtr;
  struct hipExtent extent;
  enum hipMemcpyKind kind;
} hipMemcpy3DParms;

typedef struct dim3 {
  uint32_t x, y, z;
#ifdef __cplusplus
  __host__ __device__ constexpr dim3(uint32_t vx = 1, uint32_t vy = 1,
                                     uint32_t vz = 1)
      : x(vx), y(vy), z(vz) {}
#endif
} dim3;

/* The commonly read fields of the device properties. */
typedef struct hipDeviceProp_t {
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
  int concurrentKernels;
  int canMapHostMemory;
  int managedMemory;
  int memoryBusWidth;
  int l2CacheSize;
} hipDeviceProp_t;

#define hipStreamPerThread ((hipStream_t)2)
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02

/* Devices and errors. */
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorString(hipError_t hipError);
const char *hipGetErrorName(hipError_t hip_error);
hipError_t hipSetDevice(int deviceId);
hipError_t hipGetDevice(int *deviceId);
hipError_t hipGetDeviceCount(int *count);
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId);
hipError_t hipSetDeviceFlags(unsigned flags);
hipError_t hipDeviceReset(void);
hipError_t hipDeviceSynchronize(void);
hipError_t hipCtxSynchronize(void);
hipError_t hipMemGetInfo(size_t *free, size_t *total);

/* Memory. */
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipExtMallocWithFlags(void **ptr, size_t sizeBytes,
                                 unsigned int flags);
hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipStream_t stream);
hipError_t hipMallocFromPoolAsync(void **dev_ptr, size_t size,
                                  hipMemPool_t mem_pool, hipStream_t stream);
hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width,
                          size_t height);
hipError_t hipMallocManaged(void **dev_ptr, size_t size,
                            unsigned int flags
                                CUDA_ASYNC_LINT_DEFAULT(hipMemAttachGlobal));
hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipMallocHost(void **ptr, size_t size);
hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipMemAllocHost(void **ptr, size_t size);
hipError_t hipFree(void *ptr);
hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream);
hipError_t hipHostFree(void *ptr);
hipError_t hipFreeHost(void *ptr);
hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags);
hipError_t hipHostUnregister(void *hostPtr);
hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr,
                                   unsigned int flags);

/* Copies and memsets. */
hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes,
                     hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes,
                          hipMemcpyKind kind,
                          hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t sizeBytes);
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src,
                         size_t sizeBytes);
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t sizeBytes,
                              hipStream_t stream);
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t sizeBytes,
                              hipStream_t stream);
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src,
                              size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                       size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                            size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind,
                            hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemcpy3D(const struct hipMemcpy3DParms *p);
hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms *p,
                            hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemcpyParam2D(const hip_Memcpy2D *pCopy);
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D *pCopy,
                                 hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D *pCopy);
hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D *pCopy, hipStream_t stream);
hipError_t hipMemcpyToSymbol(
    const void *symbol, const void *src, size_t sizeBytes,
    size_t offset CUDA_ASYNC_LINT_DEFAULT(0),
    hipMemcpyKind kind CUDA_ASYNC_LINT_DEFAULT(hipMemcpyHostToDevice));
hipError_t hipMemcpyFromSymbol(
    void *dst, const void *symbol, size_t sizeBytes,
    size_t offset CUDA_ASYNC_LINT_DEFAULT(0),
    hipMemcpyKind kind CUDA_ASYNC_LINT_DEFAULT(hipMemcpyDeviceToHost));
hipError_t
hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t sizeBytes,
                       size_t offset, hipMemcpyKind kind,
                       hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t
hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t sizeBytes,
                         size_t offset, hipMemcpyKind kind,
                         hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemcpyToArray(hipArray *dst, size_t wOffset, size_t hOffset,
                            const void *src, size_t count, hipMemcpyKind kind);
hipError_t hipMemcpyFromArray(void *dst, hipArray_const_t srcArray,
                              size_t wOffset, size_t hOffset, size_t count,
                              hipMemcpyKind kind);
hipError_t hipMemcpy2DToArray(hipArray *dst, size_t wOffset, size_t hOffset,
                              const void *src, size_t spitch, size_t width,
                              size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DFromArray(void *dst, size_t dpitch, hipArray_const_t src,
                                size_t wOffset, size_t hOffset, size_t width,
                                size_t height, hipMemcpyKind kind);
hipError_t
hipMemcpy2DToArrayAsync(hipArray *dst, size_t wOffset, size_t hOffset,
                        const void *src, size_t spitch, size_t width,
                        size_t height, hipMemcpyKind kind,
                        hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t
hipMemcpy2DFromArrayAsync(void *dst, size_t dpitch, hipArray_const_t src,
                          size_t wOffset, size_t hOffset, size_t width,
                          size_t height, hipMemcpyKind kind,
                          hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemcpyAtoH(void *dst, hipArray *srcArray, size_t srcOffset,
                         size_t count);
hipError_t hipMemcpyHtoA(hipArray *dstArray, size_t dstOffset,
                         const void *srcHost, size_t count);
hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src,
                         int srcDeviceId, size_t sizeBytes);
hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src,
                              int srcDevice, size_t sizeBytes,
                              hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t sizeBytes,
                               hipMemcpyKind kind, hipStream_t stream);
hipError_t hipMemset(void *dst, int value, size_t sizeBytes);
hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes,
                          hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width,
                       size_t height);
hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width,
                            size_t height,
                            hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemset3D(hipPitchedPtr pitchedDevPtr, int value,
                       hipExtent extent);
hipError_t hipMemset3DAsync(hipPitchedPtr pitchedDevPtr, int value,
                            hipExtent extent,
                            hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count);
hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value,
                            size_t count,
                            hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value,
                        size_t count);
hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value,
                             size_t count,
                             hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count);
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                             hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));

/* Streams and events. */
hipError_t hipStreamCreate(hipStream_t *stream);
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags);
hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags,
                                       int priority);
hipError_t hipExtStreamCreateWithCUMask(hipStream_t *stream,
                                        uint32_t cuMaskSize,
                                        const uint32_t *cuMask);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags);
typedef void (*hipHostFn_t)(void *userData);
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn,
                             void *userData);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                              unsigned int flags CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipEventCreate(hipEvent_t *event);
hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags);
hipError_t hipEventRecord(hipEvent_t event,
                          hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(NULL));
hipError_t
hipEventRecordWithFlags(hipEvent_t event,
                        hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(NULL),
                        unsigned int flags CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);

/* Kernel launches. clang lowers <<<grid, block, shmem, stream>>> (and
 * hipLaunchKernelGGL, a macro over it) to __hipPushCallConfiguration. */
hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks,
                           dim3 dimBlocks, void **args, size_t sharedMemBytes,
                           hipStream_t stream);
hipError_t hipLaunchCooperativeKernel(const void *f, dim3 gridDim,
                                      dim3 blockDimX, void **kernelParams,
                                      unsigned int sharedMemBytes,
                                      hipStream_t stream);
hipError_t hipExtLaunchKernel(const void *function_address, dim3 numBlocks,
                              dim3 dimBlocks, void **args,
                              size_t sharedMemBytes, hipStream_t stream,
                              hipEvent_t startEvent, hipEvent_t stopEvent,
                              int flags);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
                                 unsigned int gridDimY, unsigned int gridDimZ,
                                 unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ,
                                 unsigned int sharedMemBytes,
                                 hipStream_t stream, void **kernelParams,
                                 void **extra);
hipError_t
__hipPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                           size_t sharedMem CUDA_ASYNC_LINT_DEFAULT(0),
                           hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));
hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                     size_t *sharedMem, hipStream_t *stream);
hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim,
                            size_t sharedMem CUDA_ASYNC_LINT_DEFAULT(0),
                            hipStream_t stream CUDA_ASYNC_LINT_DEFAULT(0));

#ifdef __cplusplus
} /* extern "C" */

/* The typed overloads of ROCm's header: hipHostMalloc(&p, n) with any T*. */
template <class T> static inline hipError_t hipMalloc(T **devPtr, size_t size) {
  return hipMalloc((void **)devPtr, size);
}
template <class T>
static inline hipError_t
hipHostMalloc(T **ptr, size_t size, unsigned int flags = hipHostMallocDefault) {
  return hipHostMalloc((void **)ptr, size, flags);
}
template <class T>
static inline hipError_t
hipMallocManaged(T **devPtr, size_t size,
                 unsigned int flags = hipMemAttachGlobal) {
  return hipMallocManaged((void **)devPtr, size, flags);
}
template <class T>
static inline hipError_t hipMallocAsync(T **dev_ptr, size_t size,
                                        hipStream_t stream) {
  return hipMallocAsync((void **)dev_ptr, size, stream);
}
#endif

#undef CUDA_ASYNC_LINT_DEFAULT

#endif /* CUDA_ASYNC_LINT_BUNDLED_HIP_RUNTIME_API_H */
