// casts.c: C's conversions between integer types. A narrowing cast keeps the low bits and
// reads them in the target type ((char)300 is 44, (signed char)200 is -56, (short)65535 is
// -1); a negative value converted to unsigned adds 2^width ((unsigned char)-1 is 255,
// (unsigned)-1 is 4294967295); a widening cast keeps the value, sign extended for signed
// sources ((int)(signed char)-3 is -3, (unsigned)(unsigned char)-3 is 253); in a mixed
// comparison the int is converted to unsigned (-1 < 1u is false); _Bool is 1 for any
// non-zero value. Every test holds as gcc computes it: pass.
// expect: pass
// states: 9, transitions: 8
extern void reach_error(void);

int main(void) {
  int x = 300;
  int m = -1;
  if ((char)x != 44 || (signed char)200 != -56 || (short)65535 != -1)
    reach_error();
  if ((unsigned char)m != 255 || (unsigned)m != 4294967295u)
    reach_error();
  if ((int)(signed char)-3 != -3 || (unsigned)(unsigned char)-3 != 253)
    reach_error();
  if (m < 1u)
    reach_error();
  if ((_Bool)256 != 1 || (_Bool)0 != 0 || (unsigned char)(_Bool)-7 != 1)
    reach_error();
  if ((long long)(unsigned)m != 4294967295ll || (int)(long long)4294967296ll != 0)
    reach_error();
  return 0;
}
