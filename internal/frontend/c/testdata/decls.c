// Declarations that gcc accepts and the program never uses: gcc's
// builtins declared with the host's size_t, and an __int128 input (a type
// of 64-bit targets) under ILP32.
extern void *__builtin_alloca(unsigned long);
extern unsigned long __builtin_strlen(const char *);
extern __int128 __VERIFIER_nondet_int128(void);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x == 7)
    reach_error();
  return 0;
}
