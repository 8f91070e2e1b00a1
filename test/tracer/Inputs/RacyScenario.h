// What the race detector's CPU test programs share (RacyApp.cpp,
// RacyShapesApp.cpp): MARK prints a scenario's line first, so that the
// tests find it without counting lines; a device buffer, a stream, and
// pinned host memory from the stand-in runtime (FakeCudart.h).
#ifndef RACY_SCENARIO_H
#define RACY_SCENARIO_H

#include "FakeCudart.h"

#include <cstdio>

#define MARK(Name) std::printf("line %s %d\n", Name, __LINE__)

static const int N = 1 << 16;
static void *Device;
static volatile char Sink;
static cudaStream_t S;

static char *pinned(size_t Bytes = N) {
  void *P;
  cudaMallocHost(&P, Bytes);
  return static_cast<char *>(P);
}

#endif
