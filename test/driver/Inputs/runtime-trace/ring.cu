#include <cuda.h>
#include <unistd.h>

class Tester {
public:
  Tester() {
    cuMemAllocHost((void **)&faultyHost, sizeof(int));
    cuMemAlloc(&faultyDev, sizeof(int));
  }
  void compare() {
    cuMemsetD32Async(faultyDev, 0, 1, 0);
    cuMemcpyDtoHAsync(faultyHost, faultyDev, sizeof(int), 0);
  }
  long long errors() {
    if (*faultyHost)
      total += *faultyHost;
    return total;
  }

private:
  CUdeviceptr faultyDev;
  int *faultyHost;
  long long total = 0;
};

void burn(Tester *t, bool (*running)()) {
  int eventIndex = 0;
  const int maxEvents = 2;
  CUevent events[maxEvents];
  for (int i = 0; i < maxEvents; ++i)
    cuEventCreate(events + i, 0);
  while (running()) {
    t->compare();
    cuEventRecord(events[eventIndex], 0);
    eventIndex = ++eventIndex % maxEvents;
    while (cuEventQuery(events[eventIndex]) != CUDA_SUCCESS)
      usleep(1000);
    t->errors();
  }
}
