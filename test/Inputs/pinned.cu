// No finding: the host buffer is pinned.
void download(float *d, cudaStream_t stream) {
  float *h;
  cudaMallocHost(&h, 1024);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  cudaFreeHost(h);
}
