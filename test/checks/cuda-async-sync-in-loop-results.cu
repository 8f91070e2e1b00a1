// Loops whose host needs this iteration's result: a convergence test reached
// through assignments or a host collective, and buffers handed to MPI after
// the wait. Shapes of multi-GPU solvers (halo exchange with MPI, an L2 norm
// reduced across ranks). Any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-sync-in-loop' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-sync-in-loop' %s -- %cuda_args | %check_messages %s

#include <cuda.h>
#include <vector>

// MPI as its header declares it, enough for these shapes.
typedef int MPI_Datatype;
typedef int MPI_Comm;
typedef int MPI_Op;
typedef struct MPI_Status MPI_Status;
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 int dest, int sendtag, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                 MPI_Status *status);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
             int tag, MPI_Comm comm);
double sqrt(double);
int printf(const char *, ...);

__global__ void jacobi(float *a_new, const float *a, float *l2_norm) {}

// Error macros of HPC codes: a block, not a 'do { } while (0)'.
#define CUDA_RT_CALL(call)                                                     \
  {                                                                            \
    cudaError_t status = call;                                                 \
    if (status != cudaSuccess)                                                 \
      printf("error\n");                                                       \
  }

// ---------------------------------------------------------------------------
// Convergence: the norm copied back reaches the loop's condition.

void normThroughAPointer(float *a_new, float *a, float *l2_d, float *l2_h,
                         cudaStream_t compute, cudaStream_t halo, int max) {
  float l2 = 1.0f;
  int iter = 0;
  while (l2 > 1e-4f && iter < max) {
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, halo>>>(a_new, a, l2_d);
    CUDA_RT_CALL(cudaMemcpyAsync(l2_h, l2_d, sizeof(float),
                                 cudaMemcpyDeviceToHost, compute));
    CUDA_RT_CALL(cudaStreamSynchronize(compute));
    l2 = *l2_h;
    l2 = sqrt(l2);
    ++iter;
  }
}

void normThroughAnAllreduce(float *a_new, float *a, float *l2_d, float *l2_h,
                            cudaStream_t compute, cudaStream_t halo, int max,
                            bool every) {
  float l2 = 1.0f;
  for (int iter = 0; l2 > 1e-4f && iter < max; ++iter) {
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, halo>>>(a_new, a, l2_d);
    if (every) {
      CUDA_RT_CALL(cudaMemcpyAsync(l2_h, l2_d, sizeof(float),
                                   cudaMemcpyDeviceToHost, compute));
      CUDA_RT_CALL(cudaStreamSynchronize(compute));
      MPI_Allreduce(l2_h, &l2, 1, 0, 0, 0);
      l2 = sqrt(l2);
    }
  }
}

// A CUDA-aware collective reads the device norm the kernel wrote.
void normOfDeviceMemoryThroughAnAllreduce(float *a_new, float *a, float *l2_d,
                                          cudaStream_t compute,
                                          cudaStream_t halo, int max) {
  float l2 = 1.0f;
  for (int iter = 0; iter < max; ++iter) {
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, halo>>>(a_new, a, l2_d);
    CUDA_RT_CALL(cudaStreamSynchronize(compute));
    MPI_Allreduce(l2_d, &l2, 1, 0, 0, 0);
    if (l2 < 1e-4f)
      break;
  }
}

// ---------------------------------------------------------------------------
// Host communication: the halo a stream produced is sent after its wait.

void haloSentAfterItsStream(float *a_new, float *a, float *l2_d, int nx,
                            cudaStream_t compute, cudaStream_t top, int max) {
  for (int iter = 0; iter < max; ++iter) {
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, top>>>(a_new, a, l2_d);
    CUDA_RT_CALL(cudaStreamSynchronize(top));
    MPI_Sendrecv(a_new + nx, nx, 0, 1, 0, a_new, nx, 0, 1, 0, 0, 0);
    float *t = a_new;
    a_new = a;
    a = t;
  }
}

void haloSentAfterAnEvent(float *a_new, float *a, float *l2_d, int nx,
                          cudaStream_t compute, cudaStream_t top,
                          cudaEvent_t done, int max) {
  for (int iter = 0; iter < max; ++iter) {
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, top>>>(a_new, a, l2_d);
    CUDA_RT_CALL(cudaEventRecord(done, compute));
    CUDA_RT_CALL(cudaEventSynchronize(done));
    MPI_Send(&a_new[nx], nx, 0, 1, 0, 0);
  }
}

// ---------------------------------------------------------------------------
// Still serialized: nothing after the wait needs what it waited for.

void sendsSomethingElse(float *a_new, float *a, float *l2_d, float *other,
                        int nx, cudaStream_t compute, cudaStream_t top,
                        int max) {
  for (int iter = 0; iter < max; ++iter) {
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, top>>>(a_new, a, l2_d);
    CUDA_RT_CALL(cudaStreamSynchronize(top));
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration, so the iterations cannot overlap; move the wait after the loop, or wait for the previous iteration's work (double buffering) [cuda-async-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
    MPI_Send(other, nx, 0, 1, 0, 0);
  }
}

// The send comes before the wait: the next iteration's send needs it, but
// this iteration's wait serializes the loop all the same.
void sendsBeforeTheWait(float *a_new, float *a, float *l2_d, int nx,
                        cudaStream_t compute, cudaStream_t top, int max) {
  for (int iter = 0; iter < max; ++iter) {
    MPI_Send(a_new, nx, 0, 1, 0, 0);
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, top>>>(a_new, a, l2_d);
    CUDA_RT_CALL(cudaStreamSynchronize(top));
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
  }
}

// The norm is printed, not tested: the loop runs to 'max' whatever it is.
void normOnlyPrinted(float *a_new, float *a, float *l2_d, float *l2_h,
                     cudaStream_t compute, cudaStream_t halo, int max) {
  float l2 = 1.0f;
  for (int iter = 0; iter < max; ++iter) {
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, halo>>>(a_new, a, l2_d);
    CUDA_RT_CALL(cudaMemcpyAsync(l2_h, l2_d, sizeof(float),
                                 cudaMemcpyDeviceToHost, compute));
    CUDA_RT_CALL(cudaStreamSynchronize(compute));
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: it waits for this asynchronous operation
    l2 = sqrt(*l2_h);
    printf("%f\n", l2);
  }
}

// Error checks that stop the program: the status a call returns is no
// value derived from the buffers it is given, and the branch that tests it
// is no convergence test.
[[noreturn]] void die(cudaError_t status);
#define CUDA_RT_CALL_OR_DIE(call)                                              \
  {                                                                            \
    cudaError_t status = call;                                                 \
    if (status != cudaSuccess)                                                 \
      die(status);                                                             \
  }

#define CHECK_ONCE(call)                                                       \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      die(cudaErrorInvalidValue);                                              \
  } while (0)

void normPrintedErrorsFatal(float *a_new, float *a, float *l2_d, float *l2_h,
                            cudaStream_t compute, cudaStream_t halo, int max) {
  for (int iter = 0; iter < max; ++iter) {
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, halo>>>(a_new, a, l2_d);
    CUDA_RT_CALL_OR_DIE(cudaMemcpyAsync(l2_h, l2_d, sizeof(float),
                                        cudaMemcpyDeviceToHost, compute));
    CUDA_RT_CALL_OR_DIE(cudaStreamSynchronize(compute));
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: it waits for this asynchronous operation
    printf("%f\n", *l2_h);
  }
}

// multi_threaded_copy's Jacobi with a device sync at the end of its step:
// the norm the loop tests is read after the stream sync that waits for its
// copy, so the device sync after it waits for nothing the step needs.
void normReadAfterAnEarlierWait(float *a_new, float *a, float *l2_d,
                                float *l2_h, cudaStream_t compute,
                                cudaStream_t halo, int max) {
  float l2 = 1.0f;
  for (int iter = 0; l2 > 1e-4f && iter < max; ++iter) {
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, halo>>>(a_new, a, l2_d);
    if (iter % 10 == 0) {
      CUDA_RT_CALL_OR_DIE(cudaMemcpyAsync(l2_h, l2_d, sizeof(float),
                                          cudaMemcpyDeviceToHost, compute));
      CHECK_ONCE(cudaStreamSynchronize(compute));
      l2 = sqrt(*l2_h);
    }
    CUDA_RT_CALL_OR_DIE(cudaDeviceSynchronize());
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-10]]:5: note: it waits for this asynchronous operation
  }
}

// The earlier wait runs only when the norm is due, and the norm is read
// every step: in the other steps the read has it from the device sync.
void normReadAfterAnEarlierWaitSometimes(float *a_new, float *a, float *l2_d,
                                         float *l2_h, cudaStream_t compute,
                                         cudaStream_t halo, int max) {
  float l2 = 1.0f;
  for (int iter = 0; l2 > 1e-4f && iter < max; ++iter) {
    jacobi<<<64, 256, 0, compute>>>(a_new, a, l2_d);
    jacobi<<<1, 256, 0, halo>>>(a_new, a, l2_d);
    CUDA_RT_CALL_OR_DIE(cudaMemcpyAsync(l2_h, l2_d, sizeof(float),
                                        cudaMemcpyDeviceToHost, compute));
    if (iter % 10 == 0)
      CUDA_RT_CALL_OR_DIE(cudaStreamSynchronize(compute));
    l2 = sqrt(*l2_h);
    CUDA_RT_CALL_OR_DIE(cudaDeviceSynchronize());
  }
}

// p2pBandwidthLatencyTest: each iteration times one pair of streams alone,
// between two events it records, and reads the time after the wait.
// Overlapping the iterations would falsify what each one measures.
void timesEachPair(float *a_new, float *a, float *l2_d, cudaStream_t *streams,
                   cudaEvent_t *start, cudaEvent_t *stop, float *times,
                   int n) {
  for (int i = 0; i < n; ++i) {
    cudaEventRecord(start[i], streams[i]);
    jacobi<<<64, 256, 0, streams[i]>>>(a_new, a, l2_d);
    jacobi<<<64, 256, 0, streams[i]>>>(a, a_new, l2_d);
    cudaEventRecord(stop[i], streams[i]);
    cudaStreamSynchronize(streams[i]);
    cudaEventElapsedTime(&times[i], start[i], stop[i]);
  }
}

// The events are recorded once, around the whole loop: the elapsed time
// read inside it is no measurement of the iteration.
void timesTheWholeLoop(float *a_new, float *a, float *l2_d,
                       cudaStream_t *streams, cudaEvent_t start,
                       cudaEvent_t stop, float *t, int n) {
  cudaEventRecord(start, streams[0]);
  for (int i = 0; i < n; ++i) {
    jacobi<<<64, 256, 0, streams[i]>>>(a_new, a, l2_d);
    jacobi<<<64, 256, 0, streams[i]>>>(a, a_new, l2_d);
    cudaStreamSynchronize(streams[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
    cudaEventElapsedTime(t, start, stop);
  }
  cudaEventRecord(stop, streams[0]);
}

// The same with the events and streams in std::vectors, per pair of devices.
void timesEachPairOfDevices(float *a_new, float *a, float *l2_d, int n) {
  std::vector<cudaEvent_t> start(n), stop(n);
  std::vector<cudaStream_t> streams(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      cudaEventRecord(start[i], streams[i]);
      jacobi<<<64, 256, 0, streams[i]>>>(a_new, a, l2_d);
      jacobi<<<64, 256, 0, streams[i]>>>(a, a_new, l2_d);
      cudaEventRecord(stop[i], streams[i]);
      cudaStreamSynchronize(streams[i]);
      float t;
      cudaEventElapsedTime(&t, start[i], stop[i]);
    }
}

// ARGOT's calc_GH_sum: a reduction over four devices. Each step sums pairs
// of meshes on two devices' streams, waits for every device, then copies
// the partial sums across on the same streams, and waits again. The copy
// on strm[0] overwrites the mesh the kernel on strm[2] reads, and the next
// step's kernel on strm[0] reads what the copy on strm[2] wrote: each wait
// joins the two streams, and moving it after the loop would race.
struct Mesh {
  float g;
};
struct DiffuseParam {
  Mesh *rmesh;
};
struct CudaParam {
  int num_cuda_dev;
  cudaStream_t strm[4];
};
__global__ void sumMeshes(Mesh *into, const Mesh *from) {
  into[threadIdx.x].g += from[threadIdx.x].g;
}

void reducesAcrossDevices(DiffuseParam *cd, CudaParam *cuda, size_t bytes) {
  for (int cloop = 0; cloop < 2; cloop++) {
    cudaSetDevice(0);
    sumMeshes<<<64, 256, 0, cuda->strm[0]>>>(cd[0].rmesh, cd[1].rmesh);
    cudaSetDevice(2);
    sumMeshes<<<64, 256, 0, cuda->strm[2]>>>(cd[2].rmesh, cd[3].rmesh);
    for (int idev = 0; idev < cuda->num_cuda_dev; idev++) {
      cudaSetDevice(idev);
      cudaDeviceSynchronize();
    }
    if (cloop == 0) {
      cudaMemcpyAsync(cd[3].rmesh, cd[0].rmesh, bytes, cudaMemcpyDefault,
                      cuda->strm[0]);
      cudaMemcpyAsync(cd[1].rmesh, cd[2].rmesh, bytes, cudaMemcpyDefault,
                      cuda->strm[2]);
    } else {
      cudaMemcpyAsync(cd[1].rmesh, cd[0].rmesh, bytes, cudaMemcpyDefault,
                      cuda->strm[0]);
      cudaMemcpyAsync(cd[3].rmesh, cd[2].rmesh, bytes, cudaMemcpyDefault,
                      cuda->strm[2]);
    }
    for (int idev = 0; idev < cuda->num_cuda_dev; idev++) {
      cudaSetDevice(idev);
      cudaDeviceSynchronize();
    }
  }
}

// The same devices, each with meshes of its own: the copies after the first
// wait take only what their own stream's kernel took (stream order already
// runs them after it), and the next step's kernels read none of what the
// copies wrote. Both waits serialize the steps.
void reducesEachDeviceAlone(DiffuseParam *cd, Mesh *h0, Mesh *h2,
                            CudaParam *cuda, size_t bytes) {
  for (int cloop = 0; cloop < 2; cloop++) {
    sumMeshes<<<64, 256, 0, cuda->strm[0]>>>(cd[0].rmesh, cd[1].rmesh);
    sumMeshes<<<64, 256, 0, cuda->strm[2]>>>(cd[2].rmesh, cd[3].rmesh);
    for (int idev = 0; idev < cuda->num_cuda_dev; idev++) {
      cudaSetDevice(idev);
      cudaDeviceSynchronize();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
      // CHECK-MESSAGES: :[[@LINE-6]]:5: note: it waits for this asynchronous operation
    }
    cudaMemcpyAsync(h0, cd[0].rmesh, bytes, cudaMemcpyDeviceToHost,
                    cuda->strm[0]);
    cudaMemcpyAsync(h2, cd[2].rmesh, bytes, cudaMemcpyDeviceToHost,
                    cuda->strm[2]);
    for (int idev = 0; idev < cuda->num_cuda_dev; idev++) {
      cudaSetDevice(idev);
      cudaDeviceSynchronize();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
      // The first wait loop drained the kernels (it runs at least once):
      // this one waits for the downloads.
      // CHECK-MESSAGES: :[[@LINE-10]]:5: note: it waits for this asynchronous operation
    }
  }
}

// One buffer, a copy stream and a compute stream: the next iteration's
// upload overwrites what this iteration's kernel reads. The wait keeps the
// one buffer safe, and a second buffer (double buffering) would let the
// iterations overlap: reported.
void uploadsIntoOneBuffer(float *d, const float *h, float *l2_d,
                          cudaStream_t copy, cudaStream_t compute,
                          cudaEvent_t copied, size_t n, int steps) {
  for (int i = 0; i < steps; ++i) {
    cudaMemcpyAsync(d, h + i * n, n * sizeof(float), cudaMemcpyHostToDevice,
                    copy);
    cudaEventRecord(copied, copy);
    cudaStreamWaitEvent(compute, copied, 0);
    jacobi<<<64, 256, 0, compute>>>(d, d, l2_d);
    cudaStreamSynchronize(compute);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
  }
}

// shoc's S3D: gr_base on s2 writes c, which ratx on s1 reads later. A wait
// for s2 orders the two, but the host first issues ratt2 on s1, which
// takes nothing gr_base took: it could have run beside gr_base (an event
// before ratx would let it). Reported.
__global__ void grBase(const float *p, const float *t, float *c) {
  c[threadIdx.x] = p[threadIdx.x] * t[threadIdx.x];
}
__global__ void ratt2(const float *t, float *rb) { rb[threadIdx.x] = t[0]; }
__global__ void ratx(const float *c, float *rf) { rf[threadIdx.x] = c[0]; }

void waitsBeforeIndependentWork(float *p, float *t, float *c, float *rb,
                                float *rf, cudaStream_t s1, cudaStream_t s2,
                                int passes) {
  for (int i = 0; i < passes; i++) {
    grBase<<<64, 256, 0, s2>>>(p, t, c);
    cudaStreamSynchronize(s2);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
    ratt2<<<64, 256, 0, s1>>>(t, rb);
    ratx<<<64, 256, 0, s1>>>(c, rf);
  }
}

// The same with the dependent kernel first: the wait is the join of s2's
// write and s1's read of c, and nothing issued after it could have run
// beside gr_base.
void waitsBeforeDependentWork(float *p, float *t, float *c, float *rb,
                              float *rf, cudaStream_t s1, cudaStream_t s2,
                              int passes) {
  for (int i = 0; i < passes; i++) {
    grBase<<<64, 256, 0, s2>>>(p, t, c);
    cudaStreamSynchronize(s2);
    ratx<<<64, 256, 0, s1>>>(c, rf);
    ratt2<<<64, 256, 0, s1>>>(t, rb);
  }
}

// TIGRE's TV proximal operator: each step of the solver first waits, per
// device, for the stream the previous step's download went to, before it
// uploads on that stream again. The wait is for the previous step's work
// (double buffering for the step loop), whatever the loop around the steps
// sees; and a sync of 'stream[dev * n + 2]' does not wait for the upload
// on 'stream[dev * n + 1]' (one 'dev' for every loop, as TIGRE writes it).
void stepsWaitForThePreviousStep(float **d_u, float **d_p, float *h_u,
                                 float *h_p, cudaStream_t *stream, int n,
                                 int devices, int splits, int steps,
                                 size_t bytes) {
  int dev;
  for (int sp = 0; sp < splits; sp++)
    for (int i = 0; i < steps; i++) {
      for (dev = 0; dev < devices; dev++) {
        cudaStreamSynchronize(stream[dev * n + 1]);
        cudaMemcpyAsync(d_u[dev], h_u, bytes, cudaMemcpyHostToDevice,
                        stream[dev * n + 1]);
      }
      for (dev = 0; dev < devices; dev++) {
        cudaStreamSynchronize(stream[dev * n + 2]);
        cudaMemcpyAsync(d_p[dev], h_p, bytes, cudaMemcpyHostToDevice,
                        stream[dev * n + 2]);
      }
      for (dev = 0; dev < devices; dev++) {
        cudaMemcpyAsync(h_u, d_u[dev], bytes, cudaMemcpyDeviceToHost,
                        stream[dev * n + 1]);
        cudaMemcpyAsync(h_p, d_p[dev], bytes, cudaMemcpyDeviceToHost,
                        stream[dev * n + 2]);
      }
    }
}

// TIGRE's TV proximal operator after its inner iterations: each device's
// kernel is launched by one loop over the devices, every device is waited
// for, and another loop over the devices copies the next device's halo out
// on another stream. 'd_u[dev]' of the launch loop is every device's
// buffer by the wait, 'd_u[dev + 1]' of the copy loop every one but the
// first: the copies read what the kernels wrote, and the wait is their join.
__global__ void updateU(float *u) { u[threadIdx.x] += 1.0f; }

void haloAfterEveryDeviceIsWaitedFor(float **d_u, float *halo,
                                     cudaStream_t *stream, int n, int devices,
                                     int steps, size_t bytes) {
  int dev;
  for (int i = 0; i < steps; i++) {
    for (dev = 0; dev < devices; dev++)
      updateU<<<64, 256, 0, stream[dev * n]>>>(d_u[dev]);
    for (dev = 0; dev < devices; dev++) {
      cudaSetDevice(dev);
      cudaDeviceSynchronize();
    }
    for (dev = 0; dev < devices - 1; dev++)
      cudaMemcpyAsync(halo + dev * bytes, d_u[dev + 1], bytes,
                      cudaMemcpyDeviceToHost, stream[(dev + 1) * n + 1]);
  }
}

// The same wait before copies of buffers no kernel of the step wrote: they
// could have run beside the kernels.
void haloOfOtherBuffersAfterTheWait(float **d_u, float **d_v, float *halo,
                                    cudaStream_t *stream, int n, int devices,
                                    int steps, size_t bytes) {
  int dev;
  for (int i = 0; i < steps; i++) {
    for (dev = 0; dev < devices; dev++)
      updateU<<<64, 256, 0, stream[dev * n]>>>(d_u[dev]);
    for (dev = 0; dev < devices; dev++) {
      cudaSetDevice(dev);
      cudaDeviceSynchronize();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration, so the iterations cannot overlap; move the wait after the loop, or wait for the previous iteration's work (double buffering) [cuda-async-sync-in-loop]
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: it waits for this asynchronous operation
    }
    for (dev = 0; dev < devices - 1; dev++)
      cudaMemcpyAsync(halo + dev * bytes, d_v[dev + 1], bytes,
                      cudaMemcpyDeviceToHost, stream[(dev + 1) * n + 1]);
  }
}

// TIGRE's TV proximal operator loads its buffers in the first iteration and
// reloads them in later ones: what follows the first iteration's wait in
// that pass is the kernel that reads the loads (a join), not the reload,
// which 'i > 0' keeps out of the pass that ran 'i == 0'.
void loadsFirstReloadsLater(float **d_u, float **d_v, const float *h_u,
                            cudaStream_t *stream, int n, int devices,
                            int splits, int steps, size_t bytes) {
  int dev;
  for (int i = 0; i < steps; i++) {
    if (i == 0) {
      for (dev = 0; dev < devices; dev++)
        cudaMemcpyAsync(d_u[dev], h_u, bytes, cudaMemcpyHostToDevice,
                        stream[dev * n + 1]);
      for (dev = 0; dev < devices; dev++) {
        cudaSetDevice(dev);
        cudaDeviceSynchronize();
      }
    }
    if (splits > 1 & i > 0) {
      for (dev = 0; dev < devices; dev++)
        cudaMemcpyAsync(d_v[dev], h_u, bytes, cudaMemcpyHostToDevice,
                        stream[dev * n + 2]);
    }
    for (dev = 0; dev < devices; dev++)
      updateU<<<64, 256, 0, stream[dev * n]>>>(d_u[dev]);
  }
}

// Without the test of 'i' the reload may run in the pass that loaded, and
// could have run beside the loads.
void loadsFirstReloadsAnyTime(float **d_u, float **d_v, const float *h_u,
                              cudaStream_t *stream, int n, int devices,
                              int splits, int steps, size_t bytes) {
  int dev;
  for (int i = 0; i < steps; i++) {
    if (i == 0) {
      for (dev = 0; dev < devices; dev++)
        cudaMemcpyAsync(d_u[dev], h_u, bytes, cudaMemcpyHostToDevice,
                        stream[dev * n + 1]);
      for (dev = 0; dev < devices; dev++) {
        cudaSetDevice(dev);
        cudaDeviceSynchronize();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration, so the iterations cannot overlap; move the wait after the loop, or wait for the previous iteration's work (double buffering) [cuda-async-sync-in-loop]
        // CHECK-MESSAGES: :[[@LINE-6]]:9: note: it waits for this asynchronous operation
      }
    }
    if (splits > 1) {
      for (dev = 0; dev < devices; dev++)
        cudaMemcpyAsync(d_v[dev], h_u, bytes, cudaMemcpyHostToDevice,
                        stream[dev * n + 2]);
    }
    for (dev = 0; dev < devices; dev++)
      updateU<<<64, 256, 0, stream[dev * n]>>>(d_u[dev]);
  }
}
