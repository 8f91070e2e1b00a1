#include "staging.cuh"
#include "unused.cuh"

void run(float *d, cudaStream_t s) {
  pushTwice(d, 16, s);
  Staging<int> st;
  st.host = (int *)malloc(64);
  st.upload((int *)d, 16, s);
  release(d);
}
