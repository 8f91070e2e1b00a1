// Does not parse.
void upload(float *d, cudaStream_t stream) {
  float *h = undeclared_allocator(1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, stream)
}
