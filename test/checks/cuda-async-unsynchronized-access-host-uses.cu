// A call given a buffer in flight races with the copy if the callee touches
// the buffer on the host: reads or writes a device-to-host destination,
// writes a host-to-device source. Its body decides where there is one; a
// function known only by its declaration writes only where the declaration
// makes it certain. Both front-ends, one set of expectations; any other
// warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %cuda_args | %check_messages %s

#include <cuda_runtime.h>
#include <cstring>

// Declared only: another translation unit defines them.
void checksum(float *data, size_t n);
void fillBatch(float *data, size_t n);
void read_block(float *data, int block);
void convert(float *out, const float *in, size_t n);
void fillet(float *data, size_t n); // not the verb 'fill'
void *copyInto(void *dst, const void *src, size_t n);

// Defined here.
float total;
void sumHere(float *data, size_t n) {
  for (size_t i = 0; i < n; i++)
    total += data[i];
}
void scaleHere(float *data, size_t n) {
  for (size_t i = 0; i < n; i++)
    data[i] *= 2;
}
void negateThroughACopy(float *data, size_t n) {
  for (float *p = data, *end = data + n; p != end; ++p)
    *p = -*p;
}
void memcpyHere(float *data, const float *from) { memcpy(data, from, 16); }
void scaleTwice(float *data, size_t n) {
  scaleHere(data, n);
  scaleHere(data, n);
}
void sumTwice(float *data, size_t n) {
  sumHere(data, n);
  sumHere(data, n);
}
struct Batch {
  float *keep;
  void hold(float *data) { keep = data; }
};

// ---------------------------------------------------------------------------
// Host-to-device sources: only a write races.

void readOnlyCallees(float *d, const float *from, size_t n, cudaStream_t s,
                     void (*visit)(float *)) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  checksum(h, n);
  fillet(h, n);
  sumHere(h, n);
  sumTwice(h, n);
  visit(h); // through a pointer: nothing is known of its body
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
}

void writtenByName(float *d, size_t n, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  fillBatch(h, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:68: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  read_block(h, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:68: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
}

// memcpy's signature: the non-const pointer beside a const one is the
// output.
void writtenBySignature(float *d, const float *from, size_t n,
                        cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  convert(h, from, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:68: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  copyInto(h, from, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:68: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
}

// Bodies that write: directly, through a copy of the pointer, through
// memcpy, through another function, by keeping the pointer.
void writtenByBodies(float *d, const float *from, size_t n, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  Batch b;
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  scaleHere(h, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :29:5: note: 'data[i]' is written here
  // CHECK-MESSAGES: :[[@LINE-5]]:68: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  negateThroughACopy(h, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:68: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  memcpyHere(h, from);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :35:58: note: 'data' is written here
  // CHECK-MESSAGES: :[[@LINE-5]]:68: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  scaleTwice(h, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :37:13: note: 'data' is written here
  // CHECK-MESSAGES: :[[@LINE-5]]:68: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  b.hold(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:68: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
}

// ---------------------------------------------------------------------------
// Device-to-host destinations: a read races too, a function known only by
// its declaration included.

void readWhileCopiedInto(const float *d, size_t n, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  checksum(h, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:68: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
}
