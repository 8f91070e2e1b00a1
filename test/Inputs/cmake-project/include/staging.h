#pragma once
#include <cuda_runtime.h>
void stage(float *d_in, cudaStream_t stream);
