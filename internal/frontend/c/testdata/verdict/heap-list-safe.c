// A list of up to three nodes on the heap, summed and freed.
#include <stdlib.h>
extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);
struct node { int val; struct node *next; };
int main(void) {
  struct node *head = NULL;
  int n = 0;
  while (n < 3 && __VERIFIER_nondet_bool()) {
    struct node *e = malloc(sizeof(struct node));
    if (e == NULL)
      break;
    e->val = n;
    e->next = head;
    head = e;
    n++;
  }
  int sum = 0;
  for (struct node *p = head; p != NULL; p = p->next)
    sum += p->val;
  while (head) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  if (sum > 3) reach_error();
  return 0;
}
