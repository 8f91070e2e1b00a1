#include "errors.h"
#include "staging.h"

// Checked before staging.cpp is summarized. relay only hands makeStaging's
// buffer on: what makeStaging returns is never read, and relay.cu is not
// analysed again. upload copies from it: the buffer is pageable, which
// only staging.cpp's summary says, so upload.cu is analysed again and the
// copy reported.
void relay(cudaStream_t s) {
  float *staging = makeStaging(256);
  handOn(staging, s);
}
