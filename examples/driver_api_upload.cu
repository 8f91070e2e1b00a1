// The driver API has the same rule: cuMemcpyHtoDAsync from memory that new[]
// allocated is staged and synchronous. The upload from cuMemAllocHost
// memory is asynchronous.
#include <cstdio>
#include <cuda.h>

int main() {
  const size_t bytes = 1 << 24;
  cuInit(0);
  CUdevice device;
  cuDeviceGet(&device, 0);
  CUcontext context;
  cuDevicePrimaryCtxRetain(&context, device);
  cuCtxSetCurrent(context);

  CUstream stream;
  cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
  CUdeviceptr d;
  cuMemAlloc(&d, bytes);

  unsigned char *pageable = new unsigned char[bytes]();
  cuMemcpyHtoDAsync(d, pageable, bytes, stream);

  void *pinned;
  cuMemAllocHost(&pinned, bytes);
  cuMemcpyHtoDAsync(d, pinned, bytes, stream);

  cuStreamSynchronize(stream);
  cuMemFreeHost(pinned);
  delete[] pageable;
  cuMemFree(d);
  cuStreamDestroy(stream);
  cuDevicePrimaryCtxRelease(device);
  printf("uploaded %zu bytes twice\n", bytes);
  return 0;
}
