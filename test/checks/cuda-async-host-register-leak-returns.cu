// The caller's memory a function registers and leaves registered when it
// returns, beside a sibling it unregisters. Both front-ends, one set of
// expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-host-register-leak' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-host-register-leak' %s -- %cuda_args | %check_messages %s

#include <cuda.h>

void external(float *p);
float *kept;

static void unpin(float *p) { cudaHostUnregister(p); }
static void sum(const float *p, int n, float *out) {
  for (int i = 0; i < n; ++i)
    *out += p[i];
}

// ---------------------------------------------------------------------------
// Left registered: each is a finding.

// TIGRE's shape: both arrays pinned for a split run, only one unpinned.
int proximal(float *src, float *dst, size_t bytes, int splits,
             cudaStream_t s) {
  float *d;
  cudaMalloc(&d, bytes);
  if (splits > 1) {
    cudaHostRegister(src, bytes, cudaHostRegisterPortable);
    cudaHostRegister(dst, bytes, cudaHostRegisterPortable);
  }
  cudaMemcpyAsync(d, src, bytes, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(dst, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  if (splits > 1) {
    cudaHostUnregister(src);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'proximal' returns with 'dst' still registered with the CUDA driver: 'src', which it also registered, is unregistered here, 'dst' never; call 'cudaHostUnregister' on it too [cuda-async-host-register-leak]
    // CHECK-MESSAGES: :[[@LINE-8]]:5: note: 'dst' registered here with 'cudaHostRegister'
  }
  cudaFree(d);
  return 0;
}

// The driver API's registration, through a cast and an offset.
void driverPinned(float *in, float *out, size_t bytes, CUdeviceptr d,
                  CUstream s) {
  cuMemHostRegister((void *)in, bytes, 0);
  cuMemHostRegister(out + 0, bytes, 0);
  cuMemcpyHtoDAsync(d, in, bytes, s);
  cuMemcpyDtoHAsync(out, d, bytes, s);
  cuStreamSynchronize(s);
  cuMemHostUnregister(in);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'driverPinned' returns with 'out' still registered with the CUDA driver: 'in', which it also registered, is unregistered here, 'out' never; call 'cuMemHostUnregister' on it too
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: 'out' registered here with 'cuMemHostRegister'
}

// A template: reported once, for its pattern's lines.
template <typename T> void pinnedPair(T *a, T *b, size_t n, cudaStream_t s) {
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  cudaHostRegister(a, n * sizeof(T), 0);
  cudaHostRegister(b, n * sizeof(T), 0);
  cudaMemcpyAsync(d, a, n * sizeof(T), cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(b, d, n * sizeof(T), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'pinnedPair' returns with 'a' still registered with the CUDA driver: 'b', which it also registered, is unregistered here, 'a' never; call 'cudaHostUnregister' on it too
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: 'a' registered here with 'cudaHostRegister'
  cudaFree(d);
}
template void pinnedPair<float>(float *, float *, size_t, cudaStream_t);
template void pinnedPair<double>(double *, double *, size_t, cudaStream_t);

// Read by a helper of this file that leaves registrations alone.
void helperReads(float *a, float *b, size_t n, float *total) {
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  sum(a, 4, total);
  cudaHostUnregister(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'helperReads' returns with 'a' still registered with the CUDA driver: 'b', which it also registered, is unregistered here, 'a' never; call 'cudaHostUnregister' on it too
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: 'a' registered here with 'cudaHostRegister'
}

// Registered on different conditions, unregistered one of them: TIGRE's
// voxel backprojection pins its result only for a split run, its
// projections always.
void differentConditions(float *a, float *b, size_t n, bool split) {
  if (split)
    cudaHostRegister(b, n, 0);
  cudaHostRegister(a, n, 0);
  if (split)
    cudaHostUnregister(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'differentConditions' returns with 'a' still registered with the CUDA driver: 'b', which it also registered, is unregistered here, 'a' never; call 'cudaHostUnregister' on it too
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: 'a' registered here with 'cudaHostRegister'
}

// Stored in a local table of parts, as TIGRE's projections are.
void partsTable(float *a, float *b, size_t n) {
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  float *part[2];
  part[0] = &a[0];
  part[1] = &a[n / 8];
  sum(part[1], 4, b);
  cudaHostUnregister(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'partsTable' returns with 'a' still registered with the CUDA driver: 'b', which it also registered, is unregistered here, 'a' never; call 'cudaHostUnregister' on it too
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: 'a' registered here with 'cudaHostRegister'
}

// ---------------------------------------------------------------------------
// Not reported.

// Both unregistered.
void bothUnregistered(float *a, float *b, size_t n, cudaStream_t s) {
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  cudaMemcpyAsync(b, a, n, cudaMemcpyDefault, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(a);
  cudaHostUnregister(b);
}

// A pinning helper: it unregisters nothing, so the caller owns the
// registrations.
void pinBoth(float *a, float *b, size_t n) {
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
}

// Handed to a function of another translation unit, which may unregister it.
void handedAway(float *a, float *b, size_t n) {
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  external(a);
  cudaHostUnregister(b);
}

// Kept for later: stored where the program can reach it.
void storedForLater(float *a, float *b, size_t n) {
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  kept = a;
  cudaHostUnregister(b);
}

// Still in use after the sibling's unregistration: its download may be in
// flight when the function returns, for the caller to wait for and unpin.
void downloadLeftInFlight(float *in, float *out, float *d, size_t n,
                          cudaStream_t s) {
  cudaHostRegister(in, n, 0);
  cudaHostRegister(out, n, 0);
  cudaMemcpyAsync(d, in, n, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(in);
  cudaMemcpyAsync(out, d, n, cudaMemcpyDeviceToHost, s);
}

// Unregistered by a helper of this file.
void helperUnregisters(float *a, float *b, size_t n) {
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  unpin(a);
  cudaHostUnregister(b);
}

// Unregistered through a local alias: the alias's unregistration is the
// parameter's.
void aliasUnregistered(float *a, float *b, size_t n) {
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  cudaHostUnregister(b);
  float *alias = a + 0;
  cudaHostUnregister(alias);
}

// Something that is no parameter's memory is unregistered: what the
// function means to keep registered is not known.
void otherUnregistered(float *a, float *b, size_t n) {
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  cudaHostUnregister(b);
  cudaHostUnregister(kept);
}

// Unregistered on some paths: outside the check's contract.
void unregisteredOnSomePaths(float *a, float *b, size_t n, bool last) {
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  cudaHostUnregister(b);
  if (last)
    cudaHostUnregister(a);
}

// Its own allocations, not the caller's memory.
void ownBuffers(size_t n) {
  float *a = (float *)malloc(n), *b = (float *)malloc(n);
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  cudaHostUnregister(b);
  free(b);
}
