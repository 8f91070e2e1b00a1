// Copies issued while a stream is being captured are recorded into a graph,
// not run: the host may touch their buffers until the graph is launched.
// Any other warning or note fails. On the bundled declarations and, where
// installed, on the toolkit's headers.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %cuda_args | %check_messages %s
// RUN: %if cuda-toolkit %{ not %lint_toolkit --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s %}
// RUN: %if cuda-toolkit %{ %tidy_toolkit --checks='-*,cuda-async-unsynchronized-access' %s -- %toolkit_args | %check_messages %s %}

#include <cuda_runtime.h>

void consume(float v);

cudaGraphExec_t captureUpload(float *d, float *pinned, size_t n,
                              cudaStream_t s) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamEndCapture(s, &graph);
  // Not run yet: filling the buffer now is what the graph will copy.
  pinned[0] = 1.0f;
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  return exec;
}

// After the capture ends, copies run again.
void afterTheCapture(float *d, float *pinned, size_t n, cudaStream_t s) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamEndCapture(s, &graph);
  cudaMemcpyAsync(pinned, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  consume(pinned[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'pinned[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:73: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
}
