#include "staging.h"
#include <cstdlib>

float *makeStaging(int n) {
  return static_cast<float *>(std::malloc(n * sizeof(float)));
}

void handOn(float *, cudaStream_t) {}
