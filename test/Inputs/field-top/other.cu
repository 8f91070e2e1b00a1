#include "staging.h"
#include <cstdlib>

void fillPageable(Staging &S, int N) {
  S.data = static_cast<float *>(std::malloc(N * sizeof(float)));
}
