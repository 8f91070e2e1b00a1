// A member function leaves a transfer on a buffer member in flight, and
// another touches the member: called in turn on one object, they race.
// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %cuda_args | %check_messages %s

#include <cuda_runtime.h>
#include <algorithm>
#include <utility>
#include <vector>

void consume(float v);
void synchronizeElsewhere(cudaStream_t s);

class Pipeline {
public:
  explicit Pipeline(size_t n) : n(n) {
    cudaMallocHost(&host, n * sizeof(float));
    cudaMalloc(&device, n * sizeof(float));
    cudaStreamCreate(&stream);
  }

  // Leaves the device-to-host copy into 'host' in flight on 'stream'.
  void download() {
    cudaMemcpyAsync(host, device, n * sizeof(float), cudaMemcpyDeviceToHost,
                    stream);
  }
  // The same, on a stream the caller names.
  void downloadOn(cudaStream_t s) {
    cudaMemcpyAsync(host, device, n * sizeof(float), cudaMemcpyDeviceToHost,
                    s);
  }
  // Leaves the host-to-device copy from 'host' in flight.
  void upload() {
    cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice,
                    stream);
  }
  // Waits for everything issued on the object's stream.
  void wait() { cudaStreamSynchronize(stream); }
  // Downloads and waits: nothing left in flight.
  void downloadAndWait() {
    download();
    wait();
  }

  float sum() const {
    float total = 0;
    for (size_t i = 0; i < n; ++i)
      total += host[i];
    return total;
  }
  void fill(float v) {
    for (size_t i = 0; i < n; ++i)
      host[i] = v;
  }
  // Waits first, then reads: safe after download().
  float waitThenSum() {
    cudaStreamSynchronize(stream);
    return sum();
  }
  // Only reads a member the copies never touch.
  size_t size() const { return n; }
  // A member function that downloads, then reads, both on this object:
  // the race is inside one class.
  float downloadThenSum() {
    download();
    return sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'host[i]' is read by the call 'sum()' while 'cudaMemcpyAsync' into it may still be in flight on stream 'stream'; wait for it first with cudaStreamSynchronize(stream) or an event [cuda-async-unsynchronized-access]
    // CHECK-MESSAGES: :[[@LINE-44]]:5: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE-21]]:16: note: 'host[i]' is read here
    // CHECK-MESSAGES: :[[@LINE-45]]:21: note: on stream 'stream', not synchronized before the access
  }

  float *host = nullptr;

private:
  size_t n;
  float *device = nullptr;
  cudaStream_t stream = nullptr;
};

// ---------------------------------------------------------------------------
// Races across member functions, in the caller.

float downloadThenRead(Pipeline &p) {
  p.download();
  return p.sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'host[i]' is read by the call 'p.sum()' while 'cudaMemcpyAsync' into it may still be in flight on stream 'stream'; wait for it first with cudaStreamSynchronize(stream) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-64]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-41]]:16: note: 'host[i]' is read here
  // CHECK-MESSAGES: :[[@LINE-65]]:21: note: on stream 'stream', not synchronized before the access
}

void uploadThenOverwrite(Pipeline *p) {
  p->upload();
  p->fill(1.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'host[i]' is written by the call 'p->fill(1.0f)' while 'cudaMemcpyAsync' from it may still be in flight on stream 'stream'
  // CHECK-MESSAGES: :[[@LINE-63]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-45]]:7: note: 'host[i]' is written here
  // CHECK-MESSAGES: :[[@LINE-64]]:21: note: on stream 'stream', not synchronized before the access
}

// The member read directly, after a member function left the copy.
float downloadThenReadMember(Pipeline &p) {
  p.download();
  return p.host[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'p.host[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 'stream'
  // CHECK-MESSAGES: :[[@LINE-83]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-83]]:21: note: on stream 'stream', not synchronized before the access
}

// The stream named by the caller.
float downloadOnThenRead(Pipeline &p, cudaStream_t copies) {
  p.downloadOn(copies);
  return p.sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'host[i]' is read by the call 'p.sum()' while 'cudaMemcpyAsync' into it may still be in flight on stream 'copies'; wait for it first with cudaStreamSynchronize(copies) or an event
  // CHECK-MESSAGES: :[[@LINE-87]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-69]]:16: note: 'host[i]' is read here
  // CHECK-MESSAGES: :[[@LINE-5]]:16: note: on stream 'copies', not synchronized before the access
}

// ---------------------------------------------------------------------------
// Negative cases.

float waitedBetween(Pipeline &p) {
  p.download();
  p.wait(); // Synchronizes the object's stream.
  return p.sum();
}

float waitedByStreamSync(Pipeline &p, cudaStream_t s) {
  p.downloadOn(s);
  cudaStreamSynchronize(s);
  return p.sum();
}

float waitedByDeviceSync(Pipeline &p) {
  p.download();
  cudaDeviceSynchronize();
  return p.sum();
}

float downloadedAndWaited(Pipeline &p) {
  p.downloadAndWait();
  return p.sum();
}

float waitsItself(Pipeline &p) {
  p.download();
  return p.waitThenSum();
}

size_t untouchedMember(Pipeline &p) {
  p.download();
  return p.size();
}

// Another object's buffer.
float anotherObject(Pipeline &a, Pipeline &b) {
  a.download();
  return b.sum();
}

// Reading a host-to-device source is fine.
float uploadThenRead(Pipeline &p) {
  p.upload();
  return p.sum();
}

// Given to a function that may synchronize it.
void settle(Pipeline &p);
float givenAway(Pipeline &p) {
  p.download();
  settle(p);
  return p.sum();
}

// The object is another one by the time it is read.
float reassigned(Pipeline *p, Pipeline *q) {
  p->download();
  p = q;
  return p->sum();
}

// A virtual member function may be overridden by one that waits.
class Stage {
public:
  virtual ~Stage() = default;
  virtual void download() {
    cudaMemcpyAsync(host, device, 64, cudaMemcpyDeviceToHost, stream);
  }
  virtual void finish() {}
  float first() const { return host[0]; }
  float *host = nullptr, *device = nullptr;
  cudaStream_t stream = nullptr;
};

float overridable(Stage &s) {
  s.download();
  s.finish();
  return s.first();
}

// A member function declared here and defined elsewhere may wait.
class Remote {
public:
  void download() {
    cudaMemcpyAsync(host, device, 64, cudaMemcpyDeviceToHost, stream);
  }
  void finish();
  float first() const { return host[0]; }
  float *host = nullptr, *device = nullptr;
  cudaStream_t stream = nullptr;
};

float finishedElsewhere(Remote &r) {
  r.download();
  r.finish();
  return r.first();
}

// A member vector is pageable: its copies are cuda-async-pageable-copy's.
class Staging {
public:
  void download() {
    cudaMemcpyAsync(values.data(), device, 64, cudaMemcpyDeviceToHost, stream);
  }
  float first() const { return values[0]; }
  std::vector<float> values;
  float *device = nullptr;
  cudaStream_t stream = nullptr;
};

float pageableMember(Staging &s) {
  s.download();
  return s.first();
}

// Waits on an event recorded after the copy, in another member function.
class Recorded {
public:
  void download() {
    cudaMemcpyAsync(host, device, 64, cudaMemcpyDeviceToHost, stream);
    cudaEventRecord(done, stream);
  }
  void waitDone() { cudaEventSynchronize(done); }
  float first() const { return host[0]; }
  float *host = nullptr, *device = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
};

float waitedOnMemberEvent(Recorded &r) {
  r.download();
  r.waitDone();
  return r.first();
}

// A helper of this file that waits on the event it is given.
static void waitFor(cudaEvent_t e) { cudaEventSynchronize(e); }
float waitedOnEventHelper(float *h, const float *d, cudaStream_t s,
                          cudaEvent_t e) {
  cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  waitFor(e);
  return h[0];
}

// Double buffering: the copy fills one slot, the host reads the other.
class PingPong {
public:
  void download() {
    cudaMemcpyAsync(slots[current], device, 64, cudaMemcpyDeviceToHost,
                    stream);
    current ^= 1;
  }
  float readOther() const { return slots[current][0]; }
  float *slots[2] = {nullptr, nullptr};
  float *device = nullptr;
  int current = 0;
  cudaStream_t stream = nullptr;
};

float pingPong(PingPong &p) {
  p.download();
  return p.readOther();
}

// The buffers swap places: the host reads the one no copy is filling.
class Swapping {
public:
  void download() {
    cudaMemcpyAsync(back, device, 64, cudaMemcpyDeviceToHost, stream);
  }
  void flip() { std::swap(front, back); }
  float first() const { return back[0]; }
  float *front = nullptr, *back = nullptr, *device = nullptr;
  cudaStream_t stream = nullptr;
};

float swapped(Swapping &s) {
  s.download();
  s.flip();
  return s.first();
}

// Kaldi's decoder: the swap in the function that issued the download, or
// called the member function that did, moves the pointers, not what they
// point to.
class SwappingInline {
public:
  void launch() {
    cudaMemcpyAsync(tmp, device, 64, cudaMemcpyDeviceToHost, stream);
  }
  void step() {
    launch();
    std::swap(tmp, cur);
  }
  void stepHere() {
    cudaMemcpyAsync(tmp, device, 64, cudaMemcpyDeviceToHost, stream);
    std::swap(tmp, cur);
    std::exchange(cur, device);
  }
  // A library function given the pointer by value writes through it.
  void stepAndClear() {
    cudaMemcpyAsync(tmp, device, 64, cudaMemcpyDeviceToHost, stream);
    std::fill(tmp, tmp + 16, 0.0f);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'tmp' is written while 'cudaMemcpyAsync' into it may still be in flight on stream 'stream'; wait for it first with cudaStreamSynchronize(stream) or an event [cuda-async-unsynchronized-access]
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE-4]]:62: note: on stream 'stream', not synchronized before the access
  }
  float *tmp = nullptr, *cur = nullptr, *device = nullptr;
  cudaStream_t stream = nullptr;
};

// A buffer handed out by its owner's accessor (Kaldi's lane counters,
// 'h_lanes_counters_.lane(i)' returning '&MutableData()[i * ncols_]'): a
// copy into 'lane(0)' and a read of 'lane(k)' touch the one buffer.
template <typename T> class LaneMatrix {
public:
  T *MutableData() {
    if (!data_)
      allocate();
    return data_;
  }
  T *lane(int i) { return &this->MutableData()[i * ncols_]; }
  // Not the object's storage: two returns, or another buffer.
  T *either(int i) {
    if (i)
      return data_;
    return spare_;
  }
  T *other(T *p) { return p; }

private:
  void allocate() { cudaMallocHost(&data_, 64 * sizeof(T)); }
  T *data_ = nullptr, *spare_ = nullptr;
  int ncols_ = 1;
};
struct LaneCounters {
  int overflow;
};
class LaneDecoder {
public:
  void copyCountersAsync() {
    cudaMemcpyAsync(counters.lane(0), device, 8 * sizeof(LaneCounters),
                    cudaMemcpyDeviceToHost, stream);
  }
  void copyCountersSync() {
    copyCountersAsync();
    cudaStreamSynchronize(stream);
  }
  int checkOverflow() {
    int overflow = 0;
    for (int i = 0; i < 8; ++i) {
      LaneCounters *c = counters.lane(i);
      overflow |= c->overflow;
    }
    return overflow;
  }
  int advance() {
    copyCountersAsync();
    return checkOverflow();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'c->overflow' is read by the call 'checkOverflow()' while 'cudaMemcpyAsync' into it may still be in flight on stream 'stream'; wait for it first with cudaStreamSynchronize(stream) or an event [cuda-async-unsynchronized-access]
    // CHECK-MESSAGES: :[[@LINE-19]]:5: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE-9]]:19: note: 'c->overflow' is read here
    // CHECK-MESSAGES: :[[@LINE-20]]:45: note: on stream 'stream', not synchronized before the access
  }
  int advanceSynchronized() {
    copyCountersSync();
    return checkOverflow();
  }
  int readOtherAccessors() {
    copyCountersAsync();
    int sum = counters.either(1)->overflow;
    sum += counters.other(device)->overflow;
    cudaStreamSynchronize(stream);
    return sum;
  }
  LaneMatrix<LaneCounters> counters;
  LaneCounters *device = nullptr;
  cudaStream_t stream = nullptr;
};

// HeCBench's sparkler: a matrix class whose 'elt' returns a reference to an
// element of its pinned storage; the download is a member function of it.
template <typename P> class PinnedMatrix {
public:
  explicit PinnedMatrix(size_t n) : n_(n) {
    cudaMallocHost((void **)&h_, n * n * sizeof(P));
    cudaMalloc((void **)&d_, n * n * sizeof(P));
  }
  P &elt(size_t i, size_t j) { return h_[i + n_ * j]; }
  void fromDevice(cudaStream_t s) {
    cudaMemcpyAsync(h_, d_, n_ * n_ * sizeof(P), cudaMemcpyDeviceToHost, s);
  }

private:
  P *h_, *d_;
  size_t n_;
};

size_t spotCheck(PinnedMatrix<size_t> &c, cudaStream_t s) {
  c.fromDevice(s);
  size_t value = c.elt(1, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'c.elt(1, 2)' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-12]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:16: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  return value + c.elt(2, 1);
}

// A struct type whose one object holds host arrays and another their device
// twins: the field's summary joins both, and the copy's direction says which
// this side is. A pageable source is staged (cuda-async-pageable-copy
// reports it): its release right after is no race.
struct HostOrDevice {
  float *p;
};
struct Twins {
  void init() {
    host.p = new float[n];
    cudaMalloc(&dev.p, n * sizeof(float));
  }
  void upload(cudaStream_t s) {
    cudaMemcpyAsync(dev.p, host.p, n * sizeof(float), cudaMemcpyHostToDevice,
                    s);
    delete[] host.p;
  }
  HostOrDevice host, dev;
  size_t n = 64;
};

// Kaldi's CU_SAFE_CALL: a failed call ends in a function that does not
// return (KALDI_ERR throws). That path never comes back to the caller, so
// the upload the wait at the end covers is not in flight after the call.
[[noreturn]] void fatal(int code);
#define SAFE_CALL(call)                                                        \
  {                                                                            \
    int ret;                                                                   \
    if ((ret = (call)) != 0)                                                   \
      fatal(ret);                                                              \
  }
class Frames {
public:
  void advance(int frame) {
    for (int i = 0; i < 8; ++i)
      counters.lane(i)->overflow = frame;
    SAFE_CALL(cudaMemcpyAsync(device, counters.lane(0),
                              8 * sizeof(LaneCounters), cudaMemcpyHostToDevice,
                              stream));
    SAFE_CALL(cudaStreamSynchronize(stream));
  }
  void decode(int frames) {
    for (int f = 0; f < frames; ++f)
      advance(f);
  }
  LaneMatrix<LaneCounters> counters;
  LaneCounters *device = nullptr;
  cudaStream_t stream = nullptr;
};

// Chains of member functions: the copy two calls down, the read two calls
// down.
class Chained {
public:
  void download() {
    cudaMemcpyAsync(host, device, 64, cudaMemcpyDeviceToHost, stream);
  }
  void step() { download(); }
  float first() const { return host[0]; }
  float total() const { return first(); }
  float *host = nullptr, *device = nullptr;
  cudaStream_t stream = nullptr;
};

float chained(Chained &c) {
  c.step();
  return c.total();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'host[0]' is read by the call 'c.total()' while 'cudaMemcpyAsync' into it may still be in flight on stream 'stream'
  // CHECK-MESSAGES: :[[@LINE-13]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-11]]:32: note: 'host[0]' is read here
  // CHECK-MESSAGES: :[[@LINE-15]]:63: note: on stream 'stream', not synchronized before the access
}
