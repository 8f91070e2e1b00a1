#include <cstdlib>
struct Config { size_t bytes; };
#include "staging.cuh"
void run() { Config c{64}; stage(c); }
