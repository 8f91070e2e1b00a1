// A pointer parameter of a function whose every caller the translation unit
// holds (internal linkage, never used as a function pointer) has what all
// its call sites pass: buffers malloc'd in main and copied in a helper.
// The same for inline functions and template instantiations, which each
// unit compiles for its own calls.
// Precision first: one unknown or different call site, an exported or
// address-taken function, or a branch on a flag parameter keeps it unknown.
// RUN: not %lint --checks='-*,cuda-async-pageable-copy,cuda-async-dealloc-mismatch' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pageable-copy,cuda-async-dealloc-mismatch' %s -- %cuda_args | %check_messages %s

#include <cstdlib>
#include <vector>

static void upload(float *d, const float *h, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE+30]]:23: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :[[@LINE+30]]:23: note: pageable memory allocated here with 'malloc'
}

namespace {
void download(float *h, const float *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(h + 1, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable
  // CHECK-MESSAGES: :[[@LINE+26]]:25: note: pageable memory allocated here with 'malloc'
}
} // namespace

static void releasePinned(float *p) {
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE+22]]:3: note: pinned memory allocated here with 'cudaMallocHost'
}

// Pinned from one caller, pageable from the other: reported at that call.
static void mixed(float *d, const float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}

// Negative: the flag decides what the memory is (and whether it copies).
static void uploadMaybe(float *d, const float *h, bool pinned, cudaStream_t s) {
  if (pinned)
    cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}

void pipeline(float *d, cudaStream_t s) {
  float *a = (float *)malloc(1024);
  float *b = (float *)malloc(1024);
  upload(d, a, 256, s);
  upload(d, b, 256, s);
  float *out = (float *)malloc(1024);
  download(out, d, 255, s);
  float *pinned;
  cudaMallocHost(&pinned, 1024);
  releasePinned(pinned);
  float *other;
  cudaMallocHost(&other, 1024);
  mixed(d, other, s);
  mixed(d, a, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'mixed' copies from this pageable host memory with 'cudaMemcpyAsync', which is then staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :47:23: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :37:3: note: the asynchronous copy
  uploadMaybe(d, a, false, s);
  cudaStreamSynchronize(s);
}

// Negative: exported, so callers in other files may pass anything.
void exported(float *d, const float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}

// Negative: its address is taken, so it may be called from anywhere.
static void viaPointer(float *d, const float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}

// Negative: a call site passes what it got, which nobody knows.
static void forwarded(float *d, const float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}

// Negative: the helper registers what it is given before copying.
static void registerThenCopy(float *d, float *h, cudaStream_t s) {
  cudaHostRegister(h, 64, cudaHostRegisterDefault);
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(h);
}

void callers(float *d, const float *unknown, cudaStream_t s) {
  void (*fn)(float *, const float *, cudaStream_t) = viaPointer;
  float *h = (float *)malloc(64);
  fn(d, h, s);
  viaPointer(d, h, s);
  exported(d, h, s);
  forwarded(d, unknown, s);
  registerThenCopy(d, h, s);
}

// Inline functions and instantiations of templates are compiled by each
// unit that calls them, so the calls here are every call this unit's copy
// runs for: a wrapper chain of a class template (asStdVector() ->
// copyToHost(std::vector &) -> copyToHost(T *)).
template <typename T> class DeviceArray {
public:
  void copyToHost(std::vector<T> &out, cudaStream_t s) const {
    out.resize(n_);
    copyToHost(out.data(), s);
  }
  void copyToHost(T *out, cudaStream_t s) const {
    cudaMemcpyAsync(out, d_, n_ * sizeof(T), cudaMemcpyDeviceToHost, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' into pageable
    // CHECK-MESSAGES: :[[@LINE-7]]:35: note: the storage of 'out' (default allocator) is pageable memory
  }
  std::vector<T> asStdVector(cudaStream_t s) const {
    std::vector<T> v;
    copyToHost(v, s);
    return v;
  }
  // Negative: one instantiation, two callers that disagree.
  void fill(const T *h, cudaStream_t s) {
    cudaMemcpyAsync(d_, h, n_ * sizeof(T), cudaMemcpyHostToDevice, s);
  }

private:
  T *d_ = nullptr;
  size_t n_ = 0;
};

inline void uploadInline(float *d, const float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE+26]]:23: note: pageable memory allocated here with 'malloc'
}

template <typename T> void uploadAs(T *d, const T *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE+22]]:26: note: pageable memory allocated here with 'malloc'
}

// Negative: an inline function whose address is taken.
inline void uploadAnywhere(float *d, const float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}

// Negative: a class's member defined outside it, not inline: other units
// may call it.
struct Uploader {
  void send(float *d, const float *h, cudaStream_t s);
};
void Uploader::send(float *d, const float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}

float total(const DeviceArray<float> &a, DeviceArray<float> &b, float *d,
            cudaStream_t s) {
  std::vector<float> v = a.asStdVector(s);
  float *h = (float *)malloc(64);
  uploadInline(d, h, s);
  double *hd = (double *)malloc(64);
  uploadAs((double *)d, hd, s);
  // Negative: the float instantiation is given pinned memory only.
  float *pinned;
  cudaMallocHost(&pinned, 64);
  uploadAs(d, pinned, s);
  b.fill(h, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'fill' copies from this pageable host memory with 'cudaMemcpyAsync'
  // CHECK-MESSAGES: :159:23: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :122:5: note: the asynchronous copy
  b.fill(pinned, s);
  void (*fn)(float *, const float *, cudaStream_t) = uploadAnywhere;
  fn(d, h, s);
  Uploader().send(d, h, s);
  cudaStreamSynchronize(s);
  return v[0];
}

// ---------------------------------------------------------------------------
// A function of external linkage that copies what it is given: other units
// may call it with pinned memory, so its copy is not reported; this call
// hands it pageable memory, and is.

void uploadExternal(float *d, const float *h, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
}
void downloadExternal(float *h, const float *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
}

void passesPageable(float *d, size_t n, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  uploadExternal(d, h, n, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'uploadExternal' copies from this pageable host memory with 'cudaMemcpyAsync', which is then staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: the asynchronous copy
  std::vector<float> v(n);
  downloadExternal(v.data(), d, n, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'downloadExternal' copies into this pageable host memory with 'cudaMemcpyAsync'
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: the storage of 'v' is pageable memory
  // CHECK-MESSAGES: :[[@LINE-13]]:3: note: the asynchronous copy
  cudaStreamSynchronize(s);
  free(h);
}

// Pinned or unknown memory handed over: nothing to say.
void passesPinned(float *d, float *unknown, size_t n, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  uploadExternal(d, h, n, s);
  uploadExternal(d, unknown, n, s);
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
}

// A global array of streams that main creates, and a helper defined after
// main that copies on them (CUDA-Programming's kernel-transfer.cu): stream
// handles are no host memory, and do not make the helper's summary wait on
// main's (it used to leave the helper unsummarized, its argument maybe
// registered, and the call unreported).
cudaStream_t helperStreams[4];
void copyOnStreams(const float *h, float *d, int num);
void streamsCreatedHere(float *d) {
  float *h = (float *)malloc(1024);
  for (int i = 0; i < 4; i++)
    cudaStreamCreate(&helperStreams[i]);
  for (int num = 1; num <= 4; num *= 2)
    copyOnStreams(h, d, num);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'copyOnStreams' copies from this pageable host memory with 'cudaMemcpyAsync', which is then staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-6]]:23: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :[[@LINE+5]]:5: note: the asynchronous copy
  free(h);
}
void copyOnStreams(const float *h, float *d, int num) {
  for (int i = 0; i < num; i++)
    cudaMemcpyAsync(d + i * 64, h + i * 64, 256, cudaMemcpyHostToDevice,
                    helperStreams[i]);
  for (int i = 0; i < num; i++)
    cudaStreamSynchronize(helperStreams[i]);
}
