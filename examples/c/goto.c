// goto.c: goto and labels, forward and backward: a loop written with gotos sums 1..10 to
// 55, and a forward goto skips the statement that would call reach_error(). pass.
// expect: pass
// states: 37, transitions: 36
extern void reach_error(void);

int main(void) {
  int i = 1, sum = 0;
loop:
  if (i > 10)
    goto done;
  sum += i;
  i++;
  goto loop;
done:
  if (sum == 55)
    goto out;
  reach_error();
out:
  return 0;
}
