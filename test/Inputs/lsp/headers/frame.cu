#include <cstdlib>
struct Config { size_t bytes; };
#include "staging.cuh"
#include "outer.cuh"
void run() { Config c{64}; stage(c); inner(c); }
