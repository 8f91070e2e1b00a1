/* cuda-async-lint's bundled CUDA declarations: the runtime API lives in
 * cuda_runtime.h beside this file. */
#include "cuda_runtime.h"
