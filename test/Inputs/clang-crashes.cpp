// clang crashes on this file by design (its debugging pragma).
int main() {}
#pragma clang __debug crash
