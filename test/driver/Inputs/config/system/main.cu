#include <vendor.h>
void use(float *Dev, cudaStream_t S) { vendorCopy(Dev, S); }
