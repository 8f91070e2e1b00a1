// A struct whose pointer fields hold host buffers in one object and their
// device copies in another (a shallow copy of the struct whose fields
// cudaMalloc overwrote, as proxy apps move their data to the device): the
// field's stores are of both kinds, but the source of a host-to-device copy
// (the destination of a device-to-host one) is by its direction the host
// object's, whose stores are all pageable.
// RUN: not %lint --checks='-*,cuda-async-pageable-copy' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pageable-copy' %s -- %cuda_args | %check_messages %s

#include <cstdlib>

struct SimulationData {
  double *grid;
  int *index;
  float *weights;
  long length;
};

SimulationData toDevice(SimulationData SD) {
  SimulationData GSD = SD;
  size_t sz = SD.length * sizeof(double);
  cudaMalloc((void **)&GSD.grid, sz);
  cudaMemcpyAsync(GSD.grid, SD.grid, sz, cudaMemcpyHostToDevice, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous
  // CHECK-MESSAGES: :[[@LINE+27]]:23: note: pageable memory allocated here with 'malloc'
  // The direction says nothing of either side: either may be the device's.
  cudaMalloc((void **)&GSD.index, SD.length * sizeof(int));
  cudaMemcpyAsync(GSD.index, SD.index, SD.length * sizeof(int),
                  cudaMemcpyDefault, 0);
  // Pinned in one object, pageable in another: which one this is, unknown.
  cudaMalloc((void **)&GSD.weights, SD.length * sizeof(float));
  cudaMemcpyAsync(GSD.weights, SD.weights, SD.length * sizeof(float),
                  cudaMemcpyHostToDevice, 0);
  cudaDeviceSynchronize();
  return GSD;
}

void fromDevice(SimulationData SD, SimulationData GSD) {
  cudaMemcpyAsync(SD.grid, GSD.grid, SD.length * sizeof(double),
                  cudaMemcpyDeviceToHost, 0);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpyAsync' into pageable host memory is staged and synchronous
  // CHECK-MESSAGES: :[[@LINE+10]]:23: note: pageable memory allocated here with 'malloc'
  // The blocking copy is not this check's.
  cudaMemcpy(SD.grid, GSD.grid, SD.length * sizeof(double),
             cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
}

SimulationData init(long n, bool pin) {
  SimulationData SD;
  SD.length = n;
  SD.grid = (double *)malloc(n * sizeof(double));
  SD.index = (int *)malloc(n * sizeof(int));
  if (pin)
    cudaMallocHost((void **)&SD.weights, n * sizeof(float));
  else
    SD.weights = (float *)malloc(n * sizeof(float));
  return SD;
}
