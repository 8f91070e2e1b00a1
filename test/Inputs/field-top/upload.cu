#include "staging.h"

// This unit's own store makes Staging::data unknown: whatever the other
// units store into it, the copy below reads unknown memory, and no answer
// of the program can change that. The analysis does not ask the program for
// the field's join, so this unit, parsed first, is not analysed again once
// other.cu's store into the field is known.
void fill(Staging &S, int N) {
  S.data = static_cast<float *>(poolAlloc(N * sizeof(float)));
}

void send(Staging &S, float *Device, int N, cudaStream_t Stream) {
  cudaMemcpyAsync(Device, S.data, N * sizeof(float), cudaMemcpyHostToDevice,
                  Stream);
}
