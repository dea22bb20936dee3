// heap-list.c: a linked list on the heap. Up to four nodes are pushed (as many as the
// _Bool inputs allow), then summed and freed. malloc's block is a new object of the heap
// (its cells indeterminate until written); free makes it unreachable, so reading or
// freeing it again would be an error. The sum of 0 + 1 + 2 + 3 is at most 6, and the
// number of nodes read back is the number pushed: pass, over every sequence of inputs.
// expect: pass
// states: 277, transitions: 280
#include <stdlib.h>
extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);

struct node { int val; struct node *next; };

int main(void) {
  struct node *head = NULL;
  int n = 0;
  while (n < 4 && __VERIFIER_nondet_bool()) {
    struct node *e = malloc(sizeof(struct node));
    if (e == NULL)
      break;
    e->val = n;
    e->next = head;
    head = e;
    n++;
  }
  int sum = 0, count = 0;
  for (struct node *p = head; p != NULL; p = p->next) {
    sum += p->val;
    count++;
  }
  if (sum > 6 || count != n) reach_error();
  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
