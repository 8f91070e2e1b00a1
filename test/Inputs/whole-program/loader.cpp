#include "buffers.h"
#include <cstdlib>

float *loadMatrix(int n) {
  float *m = static_cast<float *>(std::malloc(n * sizeof(float)));
  return m;
}

void readImage(float **out, int n) { *out = new float[n]; }

void freeHost(float *p) { delete[] p; }

void Reservoir::release() {
  delete[] cells;
  cells = nullptr;
}

template <typename T> void loadSparse(T **values, int **rows, int n) {
  *values = static_cast<T *>(std::malloc(n * sizeof(T)));
  *rows = new int[n + 1];
}
template void loadSparse<double>(double **, int **, int);
