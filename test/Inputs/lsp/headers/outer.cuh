// Includes inner.cuh; included by frame.cu.
#include "inner.cuh"
