#include "errors.h"
#include <cstdio>
#include <cstdlib>

void reportError(const char *call, const char *file, int line,
                 const char *message) {
  std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, message);
  std::abort();
}

void waitForDevice(const char *why) {
  std::fprintf(stderr, "waiting: %s\n", why);
  cudaDeviceSynchronize();
}
