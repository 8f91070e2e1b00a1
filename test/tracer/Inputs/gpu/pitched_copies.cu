// A program for the recorded GPU proof (scripts/gpu-trace.sh): a tile of a
// pinned host image comes down by cudaMemcpy2DAsync, a slab of a pinned
// volume by cudaMemcpy3DAsync, and a tile by the driver's cuMemcpy2DAsync.
// Expected under cuda-async-trace --races: three races, one per copy (the
// lines marked RACE, each reading a row of its copy in flight, within the
// first 256 KiB from its first byte that --races watches); the reads of
// bytes between the rows (the image's other columns) and after the waits
// are none.
#include <cstdio>
#include <cuda.h>

__global__ void busy(float *X, int N, int Rounds) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    for (int R = 0; R < Rounds; ++R)
      X[I] = X[I] * 0.999f + 1.0f;
}

int main() {
  // A 4096 x 4096 byte image; the tile is 1024 columns x 2048 rows at
  // column 512.
  const size_t Width = 4096, Height = 4096, TileW = 1024, TileH = 2048;
  char *Image;
  cudaMallocHost(&Image, Width * Height);
  char *DTile;
  size_t DPitch;
  cudaMallocPitch(reinterpret_cast<void **>(&DTile), &DPitch, TileW, TileH);
  float *Work;
  const int N = 1 << 20;
  cudaMalloc(&Work, N * sizeof(float));
  cudaStream_t Stream;
  cudaStreamCreate(&Stream);
  volatile char Sink;

  // 2D: the tile lands at column 512 of rows 0..2047.
  busy<<<N / 256, 256, 0, Stream>>>(Work, N, 2000);
  cudaMemcpy2DAsync(Image + 512, Width, DTile, DPitch, TileW, TileH,
                    cudaMemcpyDeviceToHost, Stream);
  Sink = Image[100];               // another column: not the copy's
  Sink = Image[Width * 10 + 3000]; // another column of a copied row
  Sink = Image[Width * 20 + 600];  // RACE: a byte of the tile
  cudaStreamSynchronize(Stream);
  Sink = Image[Width * 20 + 600];

  // 3D: a slab of 4 slices of 512 rows of 1024 bytes, from a pinned
  // volume of 8 slices of 1024 rows of 4096 bytes, at slice 2, row 256,
  // column 512.
  char *Volume;
  const size_t VW = 4096, VH = 1024, VD = 8;
  cudaMallocHost(&Volume, VW * VH * VD);
  cudaPitchedPtr DSlab;
  cudaExtent Extent = make_cudaExtent(1024, 512, 4);
  cudaMalloc3D(&DSlab, Extent);
  cudaMemcpy3DParms P = {};
  P.srcPtr = DSlab;
  P.dstPtr = make_cudaPitchedPtr(Volume, VW, VW, VH);
  P.dstPos = make_cudaPos(512, 256, 2);
  P.extent = Extent;
  P.kind = cudaMemcpyDeviceToHost;
  busy<<<N / 256, 256, 0, Stream>>>(Work, N, 2000);
  cudaMemcpy3DAsync(&P, Stream);
  Sink = Volume[VW * VH * 1 + 10];             // slice 1: not copied
  Sink = Volume[VW * VH * 2 + VW * 300 + 700]; // RACE: slice 2, row 300
  cudaStreamSynchronize(Stream);

  // The driver's 2D copy: the same tile, to rows 2048.. of the image.
  CUDA_MEMCPY2D D = {};
  D.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  D.srcDevice = reinterpret_cast<CUdeviceptr>(DTile);
  D.srcPitch = DPitch;
  D.dstMemoryType = CU_MEMORYTYPE_HOST;
  D.dstHost = Image;
  D.dstXInBytes = 512;
  D.dstY = 2048;
  D.dstPitch = Width;
  D.WidthInBytes = TileW;
  D.Height = TileH;
  busy<<<N / 256, 256, 0, Stream>>>(Work, N, 2000);
  cuMemcpy2DAsync(&D, Stream);
  Sink = Image[Width * 2100 + 100];  // another column: not the copy's
  Sink = Image[Width * 2060 + 1000]; // RACE: a byte of the tile
  cudaStreamSynchronize(Stream);

  std::printf("done %d\n", static_cast<int>(Sink));
  cudaStreamDestroy(Stream);
  cudaFree(Work);
  cudaFree(DTile);
  cudaFree(DSlab.ptr);
  cudaFreeHost(Volume);
  cudaFreeHost(Image);
  return 0;
}
