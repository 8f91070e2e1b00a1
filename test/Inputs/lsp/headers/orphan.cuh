// Included by no file: analysed alone, and it does not parse.
inline void orphan(Missing m) {}
