// Kernels are async work too: memory the host can reach (managed, pinned
// and mapped) that a kernel writes must not be read, nor what it reads
// written, before the kernel's stream is waited for; device memory a kernel
// writes must not be handed to CUDA-aware MPI before then. Shapes of the
// races CuSan's suite runs, each with its synchronized twin.
// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %cuda_args | %check_messages %s

#include <cuda_runtime.h>
#include <stdlib.h>

typedef int MPI_Datatype;
typedef int MPI_Comm;
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
             int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
             MPI_Comm comm, void *status);
typedef int MPI_Request;
int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
              MPI_Comm comm, MPI_Request *request);
int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Wait(MPI_Request *request, void *status);
int MPI_Waitall(int count, MPI_Request *requests, void *statuses);

int consume(int v);
// As CUDA's device_atomic_functions.h declares it: no body here.
__device__ int atomicAdd(int *address, int val);

__global__ void fill(int *data) { data[threadIdx.x] = threadIdx.x; }
__global__ void sum(const int *in, int *out) { atomicAdd(out, in[0]); }
__global__ void ignores(int *unused, int n) {}
__device__ void put(int *p, int v) { p[threadIdx.x] = v; }
__global__ void fillThroughHelper(int *data) {
  int *row = data + blockIdx.x * blockDim.x;
  put(row, 1);
}

// ---------------------------------------------------------------------------
// Managed memory written by a kernel, read on the host.

int readBeforeTheWait(int n) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  fill<<<1, 256>>>(m);
  int s = m[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'm[0]' is read while kernel 'fill', which writes it, may still be running on the legacy default stream; wait for it first with cudaStreamSynchronize(0) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  cudaFree(m);
  return s;
}

int readAfterTheWait(int n) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  fill<<<1, 256>>>(m);
  cudaDeviceSynchronize();
  int s = m[0];
  cudaFree(m);
  return s;
}

int readAfterAnEvent(int n, cudaStream_t s) {
  int *m;
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaMallocManaged(&m, n * sizeof(int));
  fill<<<1, 256, 0, s>>>(m);
  cudaEventRecord(done, s);
  cudaEventSynchronize(done);
  return m[0];
}

int readAfterPolling(int n, cudaStream_t s) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  fill<<<1, 256, 0, s>>>(m);
  while (cudaStreamQuery(s) != cudaSuccess) {
  }
  return m[0];
}

// Managed memory on one path, 'malloc' (which a device that reads pageable
// memory reaches) on the other (cuda-samples' systemWideAtomics): on the
// managed path the kernel's writes race with the read.
int managedOrPageable(int n, bool pageableAccess) {
  int *m;
  if (pageableAccess)
    m = (int *)malloc(n * sizeof(int));
  else
    cudaMallocManaged(&m, n * sizeof(int));
  fill<<<1, 256>>>(m);
  int s = m[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'm[0]' is read while kernel 'fill', which writes it, may still be running on the legacy default stream; wait for it first with cudaStreamSynchronize(0) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  return s;
}

int managedOrPageableWaited(int n, bool pageableAccess) {
  int *m;
  if (pageableAccess)
    m = (int *)malloc(n * sizeof(int));
  else
    cudaMallocManaged(&m, n * sizeof(int));
  fill<<<1, 256>>>(m);
  cudaDeviceSynchronize();
  return m[0];
}

// Device memory on one path, pinned on the other (mgbench's uva: a GPU
// source is cudaMalloc'd, the host source cudaMallocHost'd): where the host
// writes it, it is the host's, and the kernel still reads it.
__global__ void readFrom(const int *in, int *out) { out[threadIdx.x] = in[threadIdx.x]; }
void deviceOrPinnedSource(int *out, int n, bool fromGpu, cudaStream_t s) {
  int *src;
  if (fromGpu)
    cudaMalloc(&src, n * sizeof(int));
  else
    cudaMallocHost(&src, n * sizeof(int));
  readFrom<<<1, 256, 0, s>>>(src, out);
  if (!fromGpu)
    src[0] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'src[0]' is written while kernel 'readFrom', which reads it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-5]]:25: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
}

void deviceOrPinnedSourceWaited(int *out, int n, bool fromGpu,
                                cudaStream_t s) {
  int *src;
  if (fromGpu)
    cudaMalloc(&src, n * sizeof(int));
  else
    cudaMallocHost(&src, n * sizeof(int));
  readFrom<<<1, 256, 0, s>>>(src, out);
  cudaStreamSynchronize(s);
  if (!fromGpu)
    src[0] = 1;
}

// The host updating with atomic operations what a running kernel updates
// (systemWideAtomics: system-scope atomics on both sides) shares it on
// purpose: no race, even where it also reads it plainly (a compare-and-swap
// loop). The plain read of the results before the wait is one.
void hostCounts(int *counts, int n) {
  for (int i = 0; i < n; i++) {
    int expected = counts[1];
    __sync_val_compare_and_swap(&counts[1], expected, expected + i);
    __sync_fetch_and_add(&counts[0], 1);
  }
}

int sharedWithHostAtomics(int n) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  fill<<<1, 256>>>(m);
  hostCounts(m, n);
  int first = __atomic_load_n(&m[0], __ATOMIC_SEQ_CST);
  int s = m[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'm[0]' is read while kernel 'fill', which writes it, may still be running on the legacy default stream; wait for it first with cudaStreamSynchronize(0) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the kernel is launched here
  return s + first;
}

int sharedWithHostAtomicsWaited(int n) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  fill<<<1, 256>>>(m);
  hostCounts(m, n);
  cudaDeviceSynchronize();
  return m[0];
}

// Device memory on one path: what the kernel reaches is not known.
int managedOrDevice(int n, bool onDevice) {
  int *m;
  if (onDevice)
    cudaMalloc(&m, n * sizeof(int));
  else
    cudaMallocManaged(&m, n * sizeof(int));
  fill<<<1, 256>>>(m);
  return consume(n);
}

// A device function the kernel hands a pointer derived from its parameter
// writes it.
int writtenThroughADeviceFunction(int n, cudaStream_t s) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  fillThroughHelper<<<4, 64, 0, s>>>(m);
  return consume(m[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'm[0]' is read while kernel 'fillThroughHelper', which writes it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:33: note: on stream 's', not synchronized before the access
}

// The kernel does not touch what it is given.
int notTouched(int n) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  ignores<<<1, 256>>>(m, n);
  return m[0];
}

// ---------------------------------------------------------------------------
// Pinned (mapped) memory: a kernel that only reads it races with host
// writes, not host reads; the atomic's target is written.

void pinnedReadAndWritten(cudaStream_t s) {
  int *in, *out;
  cudaHostAlloc(&in, 1024, cudaHostAllocMapped);
  cudaHostAlloc(&out, 4, cudaHostAllocMapped);
  sum<<<1, 256, 0, s>>>(in, out);
  consume(in[0]);
  in[1] = 2;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'in[1]' is written while kernel 'sum', which reads it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-5]]:20: note: on stream 's', not synchronized before the access
  consume(*out);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '*out' is read while kernel 'sum', which writes it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-9]]:20: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(in);
  cudaFreeHost(out);
}

// ---------------------------------------------------------------------------
// The legacy default stream: its work waits for the blocking streams'
// earlier work, and their later work waits for it.

int legacyThenBlockingStreamSynced(int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  int *m, *d;
  cudaMallocManaged(&m, n * sizeof(int));
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, 256, 0, 0>>>(m);
  fill<<<1, 256, 0, s>>>(d);
  cudaStreamSynchronize(s);
  return m[0];
}

int blockingThroughLegacyToAnotherSynced(int n, cudaStream_t s1,
                                         cudaStream_t s2) {
  int *m, *d;
  cudaMallocManaged(&m, n * sizeof(int));
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, 256, 0, s1>>>(m);
  fill<<<1, 256, 0, 0>>>(d);
  fill<<<1, 256, 0, s2>>>(d);
  cudaStreamSynchronize(s2);
  return m[0];
}

// A non-blocking stream does not wait for the legacy stream, nor a sync of
// the legacy stream for it.
int nonBlockingNotCoveredByLegacySync(int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  fill<<<1, 256, 0, s>>>(m);
  cudaStreamSynchronize(0);
  return m[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'm[0]' is read while kernel 'fill', which writes it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-5]]:21: note: on stream 's', not synchronized before the access
}

// ---------------------------------------------------------------------------
// CUDA-aware MPI reads the device memory a kernel writes.

void sendBeforeTheWait(int n, cudaStream_t s) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, 256, 0, s>>>(d);
  MPI_Send(d, n, 0, 1, 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'd' is read by 'MPI_Send' while kernel 'fill', which writes it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: on stream 's', not synchronized before the access
  cudaFree(d);
}

void sendAfterTheWait(int n, cudaStream_t s) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, 256, 0, s>>>(d);
  cudaStreamSynchronize(s);
  MPI_Send(d, n, 0, 1, 0, 0);
  cudaFree(d);
}

// Device memory is not the host's: only MPI touches it here.
void deviceMemoryHandedToAFunction(int n, cudaStream_t s, void (*use)(int *)) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, 256, 0, s>>>(d);
  use(d);
  MPI_Recv(&n, 1, 0, 0, 0, 0, nullptr);
  cudaStreamSynchronize(s);
  cudaFree(d);
}

// ---------------------------------------------------------------------------
// Not races: a volatile latch the host releases while the kernel spins on
// it (p2pBandwidthLatencyTest's delay kernel), one member's address given to
// the kernel while the host writes another, and a library call given what
// the kernel writes (work on a stream, not a host access).

__global__ void spin(volatile int *flag) {
  while (*flag == 0) {
  }
}
struct Latch {
  int released;
  int done;
};
__global__ void report(int *done) { *done = 1; }
#include "../Inputs/gpu-libraries/cublas_api.h"
__global__ void scaleInput(float *x) { x[threadIdx.x] *= 2.0f; }

void releaseTheLatch(cudaStream_t s) {
  int *flag;
  cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
  *flag = 0;
  spin<<<1, 1, 0, s>>>(flag);
  *flag = 1;
  cudaStreamSynchronize(s);
}

void otherMember(cudaStream_t s) {
  Latch *l;
  cudaMallocHost(&l, sizeof(Latch));
  report<<<1, 1, 0, s>>>(&l->done);
  l->released = 1;
  cudaStreamSynchronize(s);
}

void libraryAfterTheKernel(cublasHandle_t h, int n) {
  float *x, alpha = 2.0f;
  cudaMallocManaged(&x, n * sizeof(float));
  scaleInput<<<1, 256>>>(x);
  cublasSscal(h, n, &alpha, x, 1);
  cudaDeviceSynchronize();
}

// ---------------------------------------------------------------------------
// Two streams' work on one device buffer: a race unless one is ordered
// after the other (an event, the legacy stream, an allocation between).

void copyOnAnotherStream(int *h, int n, cudaStream_t s1, cudaStream_t s2) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, 256, 0, s1>>>(d);
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s2);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'd' is read by 'cudaMemcpyAsync' on stream 's2' while kernel 'fill', which writes it, may still be running on stream 's1'; make stream 's2' wait for it (cudaEventRecord after it, cudaStreamWaitEvent) or wait with cudaStreamSynchronize(s1) first [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: on stream 's1', not ordered before 'cudaMemcpyAsync'
  cudaDeviceSynchronize();
}

// Two kernels on two streams given one buffer: kernels split a buffer by
// the ranges they are given (a halo and a body kernel, simple2DFD), so no
// race is told; a copy of the whole buffer touches every part, and so does
// the same kernel given the same values.
void kernelsOnTwoStreams(int n, cudaStream_t s1, cudaStream_t s2) {
  int *d;
  cudaMalloc(&d, 2 * n * sizeof(int));
  fill<<<1, 256, 0, s1>>>(d);
  fill<<<1, 256, 0, s2>>>(d + n);
  cudaDeviceSynchronize();
}

void sameKernelOnTwoStreams(int n, cudaStream_t s1, cudaStream_t s2) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, 256, 0, s1>>>(d);
  fill<<<1, 256, 0, s2>>>(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'd' is written by kernel 'fill' on stream 's2' while kernel 'fill', which writes it, may still be running on stream 's1'; make stream 's2' wait for it (cudaEventRecord after it, cudaStreamWaitEvent) or wait with cudaStreamSynchronize(s1) first [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: on stream 's1', not ordered before kernel 'fill'
  cudaDeviceSynchronize();
}

// The same text, other values: the offset moved between the launches.
void sameTextOtherValues(int n, cudaStream_t s1, cudaStream_t s2) {
  int *d;
  cudaMalloc(&d, 2 * n * sizeof(int));
  int off = 0;
  fill<<<1, 256, 0, s1>>>(d + off);
  off += n;
  fill<<<1, 256, 0, s2>>>(d + off);
  cudaDeviceSynchronize();
}

void sameKernelOnTwoStreamsSynced(int n, cudaStream_t s1, cudaStream_t s2) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, 256, 0, s1>>>(d);
  cudaStreamSynchronize(s1);
  fill<<<1, 256, 0, s2>>>(d);
  cudaDeviceSynchronize();
}

void sliceCopiedOnAnotherStream(int *h, int n, cudaStream_t s1,
                                cudaStream_t s2) {
  int *d;
  cudaMalloc(&d, 2 * n * sizeof(int));
  fill<<<1, 256, 0, s1>>>(d);
  cudaMemcpyAsync(h, d + n, n * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaDeviceSynchronize();
}

void orderedByAnEvent(int *h, int n, cudaStream_t s1, cudaStream_t s2) {
  int *d;
  cudaEvent_t filled;
  cudaEventCreate(&filled);
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, 256, 0, s1>>>(d);
  cudaEventRecord(filled, s1);
  cudaStreamWaitEvent(s2, filled, 0);
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaDeviceSynchronize();
}

void orderedByAnAllocation(int *h, int n, cudaStream_t s1, cudaStream_t s2) {
  int *d, *other;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, 256, 0, s1>>>(d);
  cudaMalloc(&other, n * sizeof(int));
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaDeviceSynchronize();
}

void readersOnTwoStreams(const int *in, int *out1, int *out2, int n,
                         cudaStream_t s1, cudaStream_t s2) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, in, n * sizeof(int), cudaMemcpyHostToDevice);
  sum<<<1, 256, 0, s1>>>(d, out1);
  sum<<<1, 256, 0, s2>>>(d, out2);
  cudaDeviceSynchronize();
}

// ---------------------------------------------------------------------------
// Mapped memory given to a kernel at its device address
// (cudaHostGetDevicePointer): the same memory the host reads.

__global__ void copyOver(const int *in, int *out) {
  out[threadIdx.x] = in[threadIdx.x];
}

int zeroCopyReadBeforeTheWait(int n) {
  int *in, *out, *d_in, *d_out = nullptr;
  cudaHostAlloc(&in, n * sizeof(int), cudaHostAllocMapped);
  cudaHostAlloc(&out, n * sizeof(int), cudaHostAllocMapped);
  cudaHostGetDevicePointer((void **)&d_in, (void *)in, 0);
  cudaHostGetDevicePointer((void **)&d_out, (void *)out, 0);
  copyOver<<<1, 256>>>(d_in, d_out);
  in[0] = out[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'in[0]' is written while kernel 'copyOver', which reads it, may still be running on the legacy default stream; wait for it first with cudaStreamSynchronize(0) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-3]]:11: warning: 'out[0]' is read while kernel 'copyOver', which writes it, may still be running on the legacy default stream; wait for it first with cudaStreamSynchronize(0) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the kernel is launched here
  cudaDeviceSynchronize();
  return in[0];
}

int zeroCopyReadAfterTheWait(int n) {
  int *in, *out, *d_in, *d_out;
  cudaHostAlloc(&in, n * sizeof(int), cudaHostAllocMapped);
  cudaHostAlloc(&out, n * sizeof(int), cudaHostAllocMapped);
  cudaHostGetDevicePointer((void **)&d_in, (void *)in, 0);
  cudaHostGetDevicePointer((void **)&d_out, (void *)out, 0);
  copyOver<<<1, 256>>>(d_in, d_out);
  cudaDeviceSynchronize();
  return out[0];
}

// An object whose class allocates it in managed memory (its own operator
// new), written by a kernel.
struct ManagedObject {
  void *operator new(size_t n) {
    void *p;
    cudaMallocManaged(&p, n);
    return p;
  }
  int value;
};
__global__ void bump(ManagedObject *o) { o->value++; }

int classAllocatesManaged(cudaStream_t s) {
  ManagedObject *o = new ManagedObject;
  bump<<<1, 1, 0, s>>>(o);
  return o->value;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'o->value' is read while kernel 'bump', which writes it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: on stream 's', not synchronized before the access
}

int classAllocatesManagedSynced(cudaStream_t s) {
  ManagedObject *o = new ManagedObject;
  bump<<<1, 1, 0, s>>>(o);
  cudaStreamSynchronize(s);
  return o->value;
}

// ---------------------------------------------------------------------------
// Buffers reached through the pointer members of a struct a kernel is given
// (by value or by address, nested): the kernel's body decides which
// members it writes.

struct Buffers {
  int *a;
  int *b;
};
// Its own types: a field's memory is what every store into it puts there.
struct Managed {
  int *a;
};
struct Nested {
  Managed x;
  Managed y;
};
__global__ void fillB(Buffers s) { s.b[threadIdx.x] = 1; }
__global__ void fillBThrough(Buffers *s) { s->b[threadIdx.x] = 1; }
__global__ void fillYA(Nested s) { s.y.a[threadIdx.x] = 1; }

void memberSentBeforeTheWait(int n, cudaStream_t s) {
  Buffers bufs;
  cudaMalloc(&bufs.a, n * sizeof(int));
  cudaMalloc(&bufs.b, n * sizeof(int));
  fillB<<<1, 256, 0, s>>>(bufs);
  MPI_Send(bufs.b, n, 0, 1, 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'bufs.b' is read by 'MPI_Send' while kernel 'fillB', which writes it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
}

// The kernel writes the other member.
void otherMemberSent(int n, cudaStream_t s) {
  Buffers bufs;
  cudaMalloc(&bufs.a, n * sizeof(int));
  cudaMalloc(&bufs.b, n * sizeof(int));
  fillB<<<1, 256, 0, s>>>(bufs);
  MPI_Send(bufs.a, n, 0, 1, 0, 0);
  cudaStreamSynchronize(s);
}

void memberSentAfterTheWait(int n, cudaStream_t s) {
  Buffers bufs;
  cudaMalloc(&bufs.a, n * sizeof(int));
  cudaMalloc(&bufs.b, n * sizeof(int));
  fillB<<<1, 256, 0, s>>>(bufs);
  cudaStreamSynchronize(s);
  MPI_Send(bufs.b, n, 0, 1, 0, 0);
}

void memberThroughAPinnedStruct(int n, cudaStream_t s) {
  Buffers *bufs;
  cudaMallocHost(&bufs, sizeof(Buffers));
  cudaMalloc(&bufs->a, n * sizeof(int));
  cudaMalloc(&bufs->b, n * sizeof(int));
  fillBThrough<<<1, 256, 0, s>>>(bufs);
  MPI_Send(bufs->b, n, 0, 1, 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'bufs->b' is read by 'MPI_Send' while kernel 'fillBThrough', which writes it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:29: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(bufs);
}

void managedNestedMemberRead(int n, cudaStream_t s) {
  Nested bufs;
  cudaMallocManaged(&bufs.x.a, n * sizeof(int));
  cudaMallocManaged(&bufs.y.a, n * sizeof(int));
  fillYA<<<1, 256, 0, s>>>(bufs);
  consume(bufs.y.a[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'bufs.y.a[0]' is read while kernel 'fillYA', which writes it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:23: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
}

// The same kernel given the same struct on two streams writes the same
// member twice.
void structKernelOnTwoStreams(int n, cudaStream_t s1, cudaStream_t s2) {
  Buffers bufs;
  cudaMalloc(&bufs.a, n * sizeof(int));
  cudaMalloc(&bufs.b, n * sizeof(int));
  fillB<<<1, 256, 0, s1>>>(bufs);
  fillB<<<1, 256, 0, s2>>>(bufs);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'bufs' is written by kernel 'fillB' on stream 's2' while kernel 'fillB', which writes it, may still be running on stream 's1'; make stream 's2' wait for it (cudaEventRecord after it, cudaStreamWaitEvent) or wait with cudaStreamSynchronize(s1) first [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: on stream 's1', not ordered before kernel 'fillB'
  cudaDeviceSynchronize();
}

// ---------------------------------------------------------------------------
// A kernel given a lambda works on what the lambda captures by copy, as the
// lambda's body does, where the kernel calls it.

template <typename F> __global__ void apply(F f) { f(threadIdx.x); }
template <typename F> __global__ void keep(F f, int *out) { out[0] = sizeof(f); }

int lambdaWritesManaged(int n) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  auto put = [=] __host__ __device__(int i) { m[i] = i + 1; };
  apply<<<1, 256>>>(put);
  int first = m[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'm[0]' is read while kernel 'apply', which writes it, may still be running on the legacy default stream; wait for it first with cudaStreamSynchronize(0) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  cudaDeviceSynchronize();
  return first;
}

int lambdaWritesManagedSynced(int n) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  auto put = [=] __host__ __device__(int i) { m[i] = i + 1; };
  apply<<<1, 256>>>(put);
  cudaDeviceSynchronize();
  return m[0];
}

// Reading what a lambda only reads is no race.
int lambdaReadsManaged(int n, int *out) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  auto get = [=] __host__ __device__(int i) { out[i] = m[i]; };
  apply<<<1, 256>>>(get);
  int first = m[0];
  cudaDeviceSynchronize();
  return first;
}

// The kernel keeps the lambda without calling it.
int lambdaNotCalled(int n, int *out) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  auto put = [=] __host__ __device__(int i) { m[i] = i + 1; };
  keep<<<1, 1>>>(put, out);
  int first = m[0];
  cudaDeviceSynchronize();
  return first;
}

// ---------------------------------------------------------------------------
// A nonblocking MPI call works on its buffers until its request completes.

void kernelBeforeTheReceiveCompletes(int n) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  MPI_Request request;
  MPI_Irecv(d, n, 0, 0, 0, 0, &request);
  fill<<<1, 256>>>(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'd' is written by kernel 'fill' while 'MPI_Irecv', which writes it, may still be in progress; complete its request first with MPI_Wait(&request) [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the nonblocking call is made here
  MPI_Wait(&request, 0);
  cudaDeviceSynchronize();
}

void kernelAfterTheReceiveCompletes(int n) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  MPI_Request request;
  MPI_Irecv(d, n, 0, 0, 0, 0, &request);
  MPI_Wait(&request, 0);
  fill<<<1, 256>>>(d);
  cudaDeviceSynchronize();
}

// In a function that launches a kernel or issues an async copy (what
// starts the analysis; MPI code alone is not this tool's).
void hostReadBeforeTheReceiveCompletes(int *h, int *d, int n) {
  fill<<<1, 256>>>(d);
  cudaDeviceSynchronize();
  MPI_Request requests[2];
  MPI_Irecv(h, n, 0, 0, 0, 0, &requests[0]);
  MPI_Isend(h + n, n, 0, 1, 0, 0, &requests[1]);
  consume(h[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'h[0]' is read while 'MPI_Irecv', which writes it, may still be in progress; complete its request first with MPI_Wait(&requests[0]) [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the nonblocking call is made here
  MPI_Waitall(2, requests, 0);
}

// A send's buffer is read: reading it too is no race; Waitall completes
// both.
void hostReadOfASendBuffer(int *h, int *d, int n) {
  fill<<<1, 256>>>(d);
  cudaDeviceSynchronize();
  MPI_Request requests[2];
  MPI_Isend(h, n, 0, 1, 0, 0, &requests[0]);
  MPI_Irecv(h + n, n, 0, 0, 0, 0, &requests[1]);
  consume(h[0]);
  MPI_Waitall(2, requests, 0);
  consume(h[n]);
}

// The kernel is given a slice other than the one being received (a halo
// row): which rows it works on is not followed.
void kernelOnAnotherSlice(int n) {
  int *d;
  cudaMalloc(&d, 2 * n * sizeof(int));
  MPI_Request request;
  MPI_Irecv(d + n, n, 0, 0, 0, 0, &request);
  fill<<<1, 256>>>(d);
  MPI_Wait(&request, 0);
  cudaDeviceSynchronize();
}

// A helper given the request may complete it.
void complete(MPI_Request *request);
void completedByAHelper(int *h, int *d, int n) {
  fill<<<1, 256>>>(d);
  cudaDeviceSynchronize();
  MPI_Request request;
  MPI_Irecv(h, n, 0, 0, 0, 0, &request);
  complete(&request);
  consume(h[0]);
}

// ---------------------------------------------------------------------------
// A helper that launches on what its parameter points to and returns: its
// callers decide what memory that is.

void launchOn(int *p, cudaStream_t s) { fill<<<1, 256, 0, s>>>(p); }
void launchAndWait(int *p, cudaStream_t s) {
  fill<<<1, 256, 0, s>>>(p);
  cudaStreamSynchronize(s);
}
void inspect(int *p);

int managedThroughAHelper(int n, cudaStream_t s) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  launchOn(m, s);
  return m[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'm[0]' is read while kernel 'fill', which writes it, may still be running on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-13]]:41: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:15: note: on stream 's', not synchronized before the access
}

int managedThroughAHelperThatWaits(int n, cudaStream_t s) {
  int *m;
  cudaMallocManaged(&m, n * sizeof(int));
  launchAndWait(m, s);
  return m[0];
}

void deviceMemoryThroughAHelper(int n, cudaStream_t s) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  launchOn(d, s);
  inspect(d);
  cudaStreamSynchronize(s);
}

// ---------------------------------------------------------------------------
// An array of per-stream structs of managed buffers (csc-training's
// unified-memory-streams exercise): each iteration fills its own element's
// buffers and launches on its own element's stream; the next iteration's
// writes are to another element, not to what the kernel still reads.
__global__ void vectorAdd(double *c, const double *a, const double *b, int n) {
  c[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}
struct ManagedStream {
  double *a, *b, *c;
  int len;
  cudaStream_t strm;
};

void createManagedStreams(ManagedStream *s, int n) {
  for (int i = 0; i < n; ++i) {
    cudaStreamCreate(&s[i].strm);
    cudaMallocManaged((void **)&s[i].a, s[i].len * sizeof(double));
    cudaMallocManaged((void **)&s[i].b, s[i].len * sizeof(double));
    cudaMallocManaged((void **)&s[i].c, s[i].len * sizeof(double));
  }
}

void fillsEachElementThenLaunches(ManagedStream *s, int n) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < s[i].len; ++j) {
      s[i].a[j] = 1.0;
      s[i].b[j] = 2.0;
    }
    vectorAdd<<<1, 256, 0, s[i].strm>>>(s[i].c, s[i].a, s[i].b, s[i].len);
  }
  for (int i = 0; i < n; ++i)
    cudaStreamSynchronize(s[i].strm);
}

// The element the kernel reads, written again after the launch.
void writesTheLaunchedElement(ManagedStream *s, int n) {
  for (int i = 0; i < n; ++i) {
    vectorAdd<<<1, 256, 0, s[i].strm>>>(s[i].c, s[i].a, s[i].b, s[i].len);
    s[i].a[0] = 0.0;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 's[i].a[0]' is written while kernel 'vectorAdd', which reads it, may still be running on stream 's[i].strm'; wait for it first with cudaStreamSynchronize(s[i].strm) or an event [cuda-async-unsynchronized-access]
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: the kernel is launched here
    // CHECK-MESSAGES: :[[@LINE-4]]:28: note: on stream 's[i].strm', not synchronized before the access
  }
  for (int i = 0; i < n; ++i)
    cudaStreamSynchronize(s[i].strm);
}

// A later loop over the same elements, before any wait: its 'i' starts
// again at 0 and names the elements the kernels still read.
void writesEveryElementAgainBeforeTheWait(ManagedStream *s, int n) {
  int i;
  for (i = 0; i < n; ++i)
    vectorAdd<<<1, 256, 0, s[i].strm>>>(s[i].c, s[i].a, s[i].b, s[i].len);
  for (i = 0; i < n; ++i)
    s[i].b[0] = 0.0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 's[i].b[0]' is written while kernel 'vectorAdd', which reads it, may still be running on stream 's[i].strm'; wait for it first with cudaStreamSynchronize(s[i].strm) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-5]]:28: note: on stream 's[i].strm', not synchronized before the access
  for (i = 0; i < n; ++i)
    cudaStreamSynchronize(s[i].strm);
}

// ---------------------------------------------------------------------------
// Per-batch parameters staged in pinned memory as structs and sent to
// constant memory (TIGRE's projectors): the struct assignment writes the
// staging buffer as '=' on a scalar does.
struct Point3D {
  float x, y, z;
};
__constant__ Point3D projParams[9];
__global__ void project(float *out) { out[threadIdx.x] = projParams[0].x; }

void refillsStructsBeforeTheWait(float **d, cudaStream_t *stream,
                                 int devices, Point3D origin) {
  Point3D *params;
  cudaMallocHost((void **)&params, 9 * sizeof(Point3D));
  for (int dev = 0; dev < devices; dev++) {
    for (int j = 0; j < 9; j++)
      params[j] = origin;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'params[j]' is written while 'cudaMemcpyToSymbolAsync' from it may still be in flight on stream 'stream[dev * 2]'; wait for it first with cudaStreamSynchronize(stream[dev * 2]) or an event [cuda-async-unsynchronized-access]
    cudaMemcpyToSymbolAsync(projParams, params, 9 * sizeof(Point3D), 0,
                            cudaMemcpyHostToDevice, stream[dev * 2]);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE-2]]:53: note: on stream 'stream[dev * 2]', not synchronized before the access
    project<<<1, 9, 0, stream[dev * 2]>>>(d[dev]);
  }
  cudaDeviceSynchronize();
  cudaFreeHost(params);
}

void waitsBeforeRefillingStructs(float **d, cudaStream_t *stream, int devices,
                                 Point3D origin) {
  Point3D *params;
  cudaMallocHost((void **)&params, 9 * sizeof(Point3D));
  for (int dev = 0; dev < devices; dev++) {
    for (int j = 0; j < 9; j++)
      params[j] = origin;
    cudaMemcpyToSymbolAsync(projParams, params, 9 * sizeof(Point3D), 0,
                            cudaMemcpyHostToDevice, stream[dev * 2]);
    cudaStreamSynchronize(stream[dev * 2]);
    project<<<1, 9, 0, stream[dev * 2]>>>(d[dev]);
  }
  cudaDeviceSynchronize();
  cudaFreeHost(params);
}
