// An error in the body of a class template's member that nothing calls:
// g++ checks it only on instantiation, and so does the tool. The member
// that is called is analysed.
#include <cuda_runtime.h>
#include <cstdlib>

struct Plan {};
struct Strategy {
  Strategy() {}
  Strategy(Plan &plan, size_t memory) {}
};

template <typename T> class Pipeline {
public:
  Strategy strategy() {
    Strategy s(plan); // no such constructor: never instantiated
    return s;
  }
  void upload(T *d, cudaStream_t stream) {
    T *h = (T *)malloc(64);
    cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, stream);
#ifdef INSTANTIATED_ERROR
    Strategy t(plan);
#endif
  }

private:
  Plan plan;
};

void run(float *d, cudaStream_t s) {
  Pipeline<float> p;
  p.upload(d, s);
}
