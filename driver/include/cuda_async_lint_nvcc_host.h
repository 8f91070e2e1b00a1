/*===- cuda_async_lint_nvcc_host.h - What nvcc's host pass also sees -----===*
 *
 * Included by cuda-async-lint after the CUDA runtime headers into every CUDA
 * file it parses. nvcc's crt/math_functions.h declares min and max for every
 * pair of integer and floating types as __host__ __device__ functions, so
 * host code calls them unqualified ('max(a, 32.0f)'); clang's CUDA headers
 * declare the same overloads __device__ only, and a host call is an error
 * ("call to __device__ function from __host__ function"). These host
 * declarations stand in for nvcc's: clang overloads on __host__/__device__,
 * so device code keeps its own. Declarations suffice: only the host code is
 * analysed, never compiled.
 *
 * The same header declares isfinite, isnan, isinf and signbit for float,
 * double and long double __host__ __device__ in the global namespace, so
 * host code calls them unqualified without including <math.h> (llm.c's
 * 'isfinite(x)'); clang's CUDA headers declare them __device__ only. Here
 * they are libstdc++'s std:: functions brought into the global namespace,
 * as its <math.h> does (a declaration of our own would conflict with that
 * using-declaration once a file includes <math.h>).
 *
 * nvcc's cuda_runtime.h also includes <string.h>, <time.h>, <stdio.h>,
 * <stdlib.h> and <assert.h> for host code: host calls of clock() parse
 * without <time.h> (llm.c's dev/cuda/permute.cu); so they do here.
 *
 * nvcc defines __CUDACC__ as 1; clang's CUDA runtime wrapper defines it
 * empty, so a header that tests its value ('#if __CUDACC__', as CUDA 13's
 * nccl_device/utility.h does) is an error ("expected value in expression").
 * It is given nvcc's value here, after the wrapper's last definition, and
 * defined so with the bundled declarations too, where no wrapper is.
 *
 * The tool defines what else nvcc defines on its host compiler's command
 * line (__NVCC__, __CUDACC_VER_MAJOR__, ..., __CUDACC_EXTENDED_LAMBDA__
 * with --extended-lambda: docs/nvcc-dialect.md). Headers that see __NVCC__
 * and __CUDACC_EXTENDED_LAMBDA__ (libcu++'s <cuda/std/functional>) ask
 * nvcc's front end, through its built-in traits, whether a type is an
 * extended lambda's closure; clang has no such traits, and no closure type
 * is one in the host code the tool reads: they answer false here.
 *
 *===---------------------------------------------------------------------===*/

#ifndef CUDA_ASYNC_LINT_NVCC_HOST_H
#define CUDA_ASYNC_LINT_NVCC_HOST_H

/* The tool's stand-in for nvcc's system headers, force-included: a system
 * header too, so that an editor's other clang-tidy checks
 * (google-global-names-in-headers on its using-declarations) say nothing of
 * it. */
#pragma clang system_header

#if defined(__CUDACC__) || defined(__CUDA__)
#undef __CUDACC__
#define __CUDACC__ 1
#endif

#if defined(__CUDACC_EXTENDED_LAMBDA__) &&                                     \
    !defined(__nv_is_extended_device_lambda_closure_type)
#define __nv_is_extended_device_lambda_closure_type(X) false
#define __nv_is_extended_host_device_lambda_closure_type(X) false
#define __nv_is_extended_device_lambda_with_preserved_return_type(X) false
#endif

#if defined(__cplusplus) && defined(__CUDA__) && !defined(__CUDA_ARCH__)

#define CUDA_ASYNC_LINT_MINMAX(R, A, B)                                        \
  __attribute__((host)) R min(const A a, const B b);                           \
  __attribute__((host)) R max(const A a, const B b);

CUDA_ASYNC_LINT_MINMAX(int, int, int)
CUDA_ASYNC_LINT_MINMAX(unsigned int, unsigned int, unsigned int)
CUDA_ASYNC_LINT_MINMAX(unsigned int, int, unsigned int)
CUDA_ASYNC_LINT_MINMAX(unsigned int, unsigned int, int)
CUDA_ASYNC_LINT_MINMAX(long int, long int, long int)
CUDA_ASYNC_LINT_MINMAX(unsigned long int, unsigned long int, unsigned long int)
CUDA_ASYNC_LINT_MINMAX(unsigned long int, long int, unsigned long int)
CUDA_ASYNC_LINT_MINMAX(unsigned long int, unsigned long int, long int)
CUDA_ASYNC_LINT_MINMAX(long long int, long long int, long long int)
CUDA_ASYNC_LINT_MINMAX(unsigned long long int, unsigned long long int,
                       unsigned long long int)
CUDA_ASYNC_LINT_MINMAX(unsigned long long int, long long int,
                       unsigned long long int)
CUDA_ASYNC_LINT_MINMAX(unsigned long long int, unsigned long long int,
                       long long int)
CUDA_ASYNC_LINT_MINMAX(float, float, float)
CUDA_ASYNC_LINT_MINMAX(double, double, double)
CUDA_ASYNC_LINT_MINMAX(double, float, double)
CUDA_ASYNC_LINT_MINMAX(double, double, float)

#undef CUDA_ASYNC_LINT_MINMAX

/* nvcc's cuda_runtime.h includes these C headers into every CUDA file
   (crt/common_functions.h), so host code calls clock() or memcpy() without
   including them. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmath>
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

#endif

/* nvcc's sm_32_intrinsics.h declares the cache-hinted loads and stores
 * __ldca, __ldlu, __stcg, __stcs and __stwb for 30 scalar and vector types;
 * clang's CUDA headers skip that header and define only __ldcg, __ldcs,
 * __ldcv and __stwt of the five families (__clang_cuda_intrinsics.h), so a
 * device function that calls '__stcg(p, v)' (HierarchicalKV's kernels) is
 * an error of overload resolution. The declarations below are nvcc's,
 * device only. The vector types come with the toolkit's vector_types.h,
 * which the bundled declarations lack: the vector forms are declared only
 * where it is. */
#if defined(__cplusplus) && defined(__CUDA__)

#define CUDA_ASYNC_LINT_SM32_CACHE_HINTS(T)                                    \
  __attribute__((device)) T __ldca(const T *ptr);                              \
  __attribute__((device)) T __ldlu(const T *ptr);                              \
  __attribute__((device)) void __stcg(T *ptr, T value);                        \
  __attribute__((device)) void __stcs(T *ptr, T value);                        \
  __attribute__((device)) void __stwb(T *ptr, T value);

CUDA_ASYNC_LINT_SM32_CACHE_HINTS(char)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(signed char)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(unsigned char)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(short)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(unsigned short)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(int)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(unsigned int)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(long)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(unsigned long)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(long long)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(unsigned long long)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(float)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(double)

#if defined(__VECTOR_TYPES_H__)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(char2)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(char4)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(short2)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(short4)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(int2)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(int4)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(longlong2)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(uchar2)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(uchar4)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(ushort2)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(ushort4)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(uint2)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(uint4)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(ulonglong2)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(float2)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(float4)
CUDA_ASYNC_LINT_SM32_CACHE_HINTS(double2)
#endif

#undef CUDA_ASYNC_LINT_SM32_CACHE_HINTS

#endif

#endif /* CUDA_ASYNC_LINT_NVCC_HOST_H */
