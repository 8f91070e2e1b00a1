// clang 22 never finishes rendering the error this file causes: the
// snippet of a line after `#line 0` runs over four billion lines.
int x = (
#line 0
