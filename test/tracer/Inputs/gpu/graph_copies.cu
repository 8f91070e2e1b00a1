// A program for the recorded GPU proof (scripts/gpu-trace.sh): a pipeline
// captured into a CUDA graph (upload from pinned memory, a kernel, download
// into pinned memory, then a host function that sums what came down),
// launched again and again. Expected under cuda-async-trace --races:
// exactly one race, the read of the results right after a launch (line
// marked RACE); the host function's read (it runs after the download, at
// each launch) and the reads after the stream's wait are none.
#include <cstdio>

__global__ void scale(const float *In, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = 2.0f * In[I];
}

/// Sums what the graph's download brought: a node of the graph.
static void sumResults(void *Data) {
  const float *Results = static_cast<const float *>(Data);
  volatile float Sum = 0;
  for (int I = 0; I < 1024; ++I)
    Sum = Sum + Results[I];
}

int main() {
  const int N = 1 << 22;
  float *Input, *Results, *DIn, *DOut;
  cudaMallocHost(&Input, N * sizeof(float));
  cudaMallocHost(&Results, N * sizeof(float));
  cudaMalloc(&DIn, N * sizeof(float));
  cudaMalloc(&DOut, N * sizeof(float));
  for (int I = 0; I < N; ++I)
    Input[I] = 1.0f;
  cudaStream_t Stream;
  cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking);

  cudaStreamBeginCapture(Stream, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(DIn, Input, N * sizeof(float), cudaMemcpyHostToDevice,
                  Stream);
  scale<<<N / 256, 256, 0, Stream>>>(DIn, DOut, N);
  cudaMemcpyAsync(Results, DOut, N * sizeof(float), cudaMemcpyDeviceToHost,
                  Stream);
  cudaLaunchHostFunc(Stream, sumResults, Results);
  cudaGraph_t Graph;
  cudaStreamEndCapture(Stream, &Graph);
  cudaGraphExec_t Exec;
  cudaGraphInstantiate(&Exec, Graph, 0);

  float Total = 0;
  for (int Iteration = 0; Iteration < 5; ++Iteration) {
    cudaGraphLaunch(Exec, Stream);
    if (Iteration == 2)
      Total += Results[N - 1]; // RACE: the download may still be running.
    cudaStreamSynchronize(Stream);
    Total += Results[0];
    Input[0] = static_cast<float>(Iteration);
  }
  std::printf("total %.0f\n", Total);
  cudaGraphExecDestroy(Exec);
  cudaGraphDestroy(Graph);
  cudaStreamDestroy(Stream);
  cudaFree(DIn);
  cudaFree(DOut);
  cudaFreeHost(Input);
  cudaFreeHost(Results);
  return 0;
}
