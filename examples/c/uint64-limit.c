// uint64-limit.c: birch holds unsigned 64-bit values below 2^63 only (BIR computes on
// 64-bit signed integers). Decrementing an unsigned long long 0 gives 2^64 - 1 in C, a
// value birch cannot represent: the search cuts that path at the store and says so, and
// the check is inconclusive, never a guess (the reach_error() after it is reachable in C,
// and birch claims neither a pass nor a failure). A constant from 2^63 on, such as
// ULLONG_MAX, is reported as unsupported at its position, with the same verdict.
// expect: inconclusive limit
// states: 3, transitions: 3
extern void reach_error(void);

int main(void) {
  unsigned long long x = 0;
  x--;
  if (x > 0)
    reach_error();
  return 0;
}
