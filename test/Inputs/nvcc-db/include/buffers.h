#include <cstdlib>
#ifndef STAGING_IS_MALLOC
#error "STAGING_IS_MALLOC comes from the compile command"
#endif
inline float *allocateStaging(size_t n) { return (float *)malloc(n * 4); }
#define allocateStaging(n) ((float *)malloc((n) * sizeof(float)))
