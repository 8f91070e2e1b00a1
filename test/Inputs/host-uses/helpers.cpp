#include <cstddef>

float lastChecksum;

// Only reads what it is given.
void checksum(float *data, size_t n) {
  float sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += data[i];
  lastChecksum = sum;
}

// Writes it, through a copy of the pointer.
void scramble(float *data, size_t n) {
  // host-uses.test edits the next line.
  for (float *p = data, *end = data + n; p != end; ++p) *p = -*p;
}

// Named as a writer, but only reads.
void fillBatch(float *data, size_t n) { lastChecksum = n ? data[0] : 0; }
