#pragma once
#include <cuda_runtime.h>

// Defined in staging.cpp, the smallest unit, parsed last.
float *makeStaging(int n);
void handOn(float *buffer, cudaStream_t s);
