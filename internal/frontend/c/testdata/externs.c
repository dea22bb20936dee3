// A global declared extern only is defined elsewhere: it holds any value.
extern int i;
extern int j;
int j = 2;
extern unsigned char k;
unsigned char k;

int main() {
  if (i == 1 && j == 2 && k == 0) {
  ERROR:
    return 1;
  }
  return 0;
}
