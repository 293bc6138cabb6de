/* A typedef written before its struct (`typedef struct particle particle;`, then `struct
 * particle { … };`, the usual idiom for self-referencing structs), and types built on it:
 * the struct is complete where the variables are declared. acc had kept the typedef's
 * incomplete type and refused every data clause naming a variable of it ("incomplete type,
 * so its size is unknown"). */
#include <stdio.h>

#define N 32

typedef struct particle particle;
typedef particle *particle_ref;

struct particle {
  double x, v;
  particle_ref next;
};

typedef particle cloud[N];

static particle leader;
static particle swarm[N];
#pragma acc declare create(swarm)

int main(void) {
  cloud group;
  double out[N];
  leader.x = 1.0;
  leader.v = 0.5;
  for (int i = 0; i < N; i++) {
    group[i].x = i;
    group[i].v = 2.0;
    group[i].next = 0;
    swarm[i].x = 10.0 * i;
  }
#pragma acc update device(swarm)
#pragma acc parallel loop copyin(leader, group) copyout(out)
  for (int i = 0; i < N; i++)
    out[i] = group[i].x + group[i].v * leader.v + leader.x + swarm[i].x;
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += out[i] != i + 1.0 + 1.0 + 10.0 * i;
  if (wrong)
    printf("typedef-before-struct: %d wrong\n", wrong);
  else
    printf("typedef-before-struct: ok\n");
  return wrong != 0;
}
