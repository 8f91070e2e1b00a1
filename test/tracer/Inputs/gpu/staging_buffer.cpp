// The other half of opaque_staging.cu: ordinary pageable memory.
#include <cstdlib>

float *stagingBuffer(size_t Count) {
  return static_cast<float *>(std::malloc(Count * sizeof(float)));
}

void releaseStagingBuffer(float *Buffer) { std::free(Buffer); }
