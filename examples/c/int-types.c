// int-types.c: every C integer type, with its width and signedness under ILP32 and LP64
// alike: each variable is set to its type's largest value and incremented, and wraps to
// its type's smallest (unsigned: modulo 2^width; signed: two's complement, as gcc's code
// computes it). _Bool holds 0 or 1 (any non-zero value converts to 1); char is signed, as
// on x86. long takes 32 or 64 bits by the data model, and LONG_MAX (limits.h) with it;
// unsigned long wraps at 2^32 under ILP32 and does not under LP64, which the last test
// tells apart by sizeof(long). So the program passes under both data models. (Unsigned
// 64-bit values from 2^63 on, such as ULONG_MAX under LP64, are a limit of birch: see
// uint64-limit.c.)
// expect: pass
// expect with --data-model LP64: pass
// states: 33, transitions: 32
// states with --data-model LP64: 33, transitions: 32
#include <limits.h>
extern void reach_error(void);

int main(void) {
  _Bool b = 7;
  char c = CHAR_MAX;
  signed char sc = SCHAR_MAX;
  unsigned char uc = UCHAR_MAX;
  short s = SHRT_MAX;
  unsigned short us = USHRT_MAX;
  int i = INT_MAX;
  unsigned int ui = UINT_MAX;
  long l = LONG_MAX;
  unsigned long ul = 4294967295u;
  long long ll = LLONG_MAX;
  unsigned long long ull = 9223372036854775806u;

  if (b != 1)
    reach_error();
  c++; sc++; uc++; s++; us++; i++; ui++; l++; ul++; ll++; ull++;
  if (c != CHAR_MIN || sc != SCHAR_MIN || uc != 0)
    reach_error();
  if (s != SHRT_MIN || us != 0 || i != INT_MIN || ui != 0)
    reach_error();
  if (l != LONG_MIN || ll != LLONG_MIN || ull != 9223372036854775807u)
    reach_error();
  if (sizeof(long) == 4 ? ul != 0 : ul != 4294967296)
    reach_error();
  if (sizeof(char) != 1 || sizeof(short) != 2 || sizeof(int) != 4 || sizeof(long long) != 8)
    reach_error();
  return 0;
}
