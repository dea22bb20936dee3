// Expressions with effects: && || with calls, ?:, comma, compound
// assignment, ++ and --, comparisons as int values.
extern void reach_error(void);
int g;

int bump(int k) {
  g += k;
  return g;
}

int main() {
  int a = 0, b = 2;
  if (a && bump(1))
    reach_error();
  if (b || bump(1))
    a = 1;
  int c = (a < b) + (a == 1);
  int d = a ? b : c;
  int e = (a++, b--, a + b);
  int f = g++ + ++g;
  d *= 3;
  d <<= 1;
  d %= 5;
  return c + d + e + f + (bump(2) > 1 && bump(3) > 1);
}
