// Integer types under LP64: long and unsigned long are 64 bits wide.
extern void reach_error(void);
unsigned char uc = 250;
signed char sc = -128;
unsigned short us = 65535;
short s = 32767;
unsigned int ui = 4294967295u;
long l = 2147483647L;
unsigned long ul;
long long ll = -9223372036854775807LL - 1;
unsigned long long ull = 18446744073709551615ULL;
_Bool b = 5;
char c = 'a';

int main(void) {
  uc += 10;          // 4: unsigned char wraps
  sc = sc - 1;       // 127: two's complement
  us++;              // 0
  s = s + 1;         // -32768
  ui = ui + 2;       // 1
  l = l + 1;         // LP64: 2147483648
  ul = 1 - ul;       // LP64: 1
  ll = ll - 1;       // 9223372036854775807
  b = b + 1;         // 1
  int i = -1;
  unsigned int u = i; // 4294967295
  if (i < u) reach_error(); // false: -1 converts to unsigned
  int x = (unsigned char)300 + (signed char)200; // 44 + -56
  int y = 7 / -2 + -7 % 2; // -3 + -1
  int z = (i << 3) >> 1 | 5 & 3 ^ ~0; // bitwise operators
  return uc + sc + x + y + z + c;
}
