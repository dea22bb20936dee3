// An SV-COMP task's property is its error function: a failing C assert
// (glibc's __assert_fail) aborts the program, it is not the property
// (checked with ErrorFunctions set, as for an unreach-call task).
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
extern void reach_error(void);
int main() {
  int x = 0;
  x++;
  if (x == 1)
    __assert_fail("x != 1", "assertfail.c", 10, "main");
  reach_error();
  return 0;
}
