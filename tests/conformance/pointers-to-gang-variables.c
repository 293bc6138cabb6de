/* A gang loop's body sets its own variables through pointers (`int *p = &y; *p = …`,
 * `struct cell *c = &here; c->value = …`) outside its vector loops, which then read them: the
 * variables are the gang's, shared by its vector lanes (OpenACC 3.3 2.6.1), so every lane must
 * see what was written. The CUDA version had run such a statement on one lane (as it does a
 * write of shared memory), and the other lanes read their own unset copies; the pointer
 * initializer beside the statement marker did not compile. A row pointer into a mapped array
 * is written the same way, and stays one lane's write. */
#include <stdio.h>

#define GANGS 8
#define LANES 32

struct cell {
  int value;
  int weight;
};

int main(void) {
  int out[GANGS * LANES], rows[GANGS * LANES];
  for (int i = 0; i < GANGS * LANES; i++)
    rows[i] = -1;
#pragma acc parallel num_gangs(GANGS) vector_length(LANES) copyout(out) copy(rows)
  {
#pragma acc loop gang
    for (int g = 0; g < GANGS; g++) {
      int y;
      int *p = &y;
      struct cell here;
      struct cell *c = &here;
      int *row = &rows[g * LANES];
      *p = 100 + g;
      c->value = 10 * g;
      c->weight = 2;
      row[0] = g;
#pragma acc loop vector
      for (int k = 0; k < LANES; k++)
        out[g * LANES + k] = y + here.value * here.weight + k;
    }
  }
  int errors = 0;
  for (int g = 0; g < GANGS; g++)
    for (int k = 0; k < LANES; k++) {
      if (out[g * LANES + k] != 100 + g + 20 * g + k)
        errors++;
      if (rows[g * LANES + k] != (k == 0 ? g : -1))
        errors++;
    }
  printf("%s (%d wrong)\n", errors ? "FAILED" : "ok", errors);
  return errors != 0;
}
