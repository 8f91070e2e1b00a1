/* hipcc compiles .c files as C. */
#include <stdlib.h>

float *makeBuffer(size_t n) { return (float *)malloc(n * sizeof(float)); }
