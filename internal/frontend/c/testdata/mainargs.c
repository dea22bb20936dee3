// main's parameters: argc holds any nonnegative value, an argv the body
// never names is irrelevant.
extern void reach_error(void);
int main(int argc, char **argv) {
  if (argc < 0)
    reach_error();
  return argc > 1;
}
