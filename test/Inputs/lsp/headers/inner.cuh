// Included by outer.cuh only: analysed through frame.cu, which includes
// outer.cuh.
inline void inner(Config c) {
  float *p;
  cudaMallocHost(&p, c.bytes);
  delete[] p;
}
