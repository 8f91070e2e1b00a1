#pragma once
#include <cuda_runtime.h>

// Defined in errors.cpp: every other unit calls them, as a project's
// CHECK macro calls its error handler.
[[noreturn]] void reportError(const char *call, const char *file, int line,
                              const char *message);
void waitForDevice(const char *why);

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t Err = (call);                                                  \
    if (Err != cudaSuccess)                                                    \
      reportError(#call, __FILE__, __LINE__, cudaGetErrorString(Err));         \
  } while (0)
