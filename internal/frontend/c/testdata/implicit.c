// Undeclared __VERIFIER_nondet_T functions return the type their name
// says (C's implicit declaration would say int).
extern void reach_error(void);
int main() {
  unsigned int u = __VERIFIER_nondet_uint();
  long long ll = __VERIFIER_nondet_longlong();
  if (u > 4000000000u && ll > 5000000000LL)
    reach_error();
  return 0;
}
