/* Code in the style a stencil generator writes (Devito's OpenACC backend): arrays reached
 * through a struct that holds their data and extents, viewed as pointers to variable-length
 * arrays whose extents read the struct (`float (*u)[u_vec->size[1]][u_vec->size[2]]`), mapped
 * with enter/exit data, a time loop with comma expressions, `present(u)` on the kernels. The
 * extents lie in host memory: the kernels get their values, computed at each launch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct dataobj {
  void *restrict data;
  int *size;
};

static int kernel(struct dataobj *restrict u_vec, struct dataobj *restrict c_vec, const float dt,
                  const int time_M, const int time_m, const int x_M, const int x_m,
                  const int y_M, const int y_m) {
  float(*restrict u)[u_vec->size[1]][u_vec->size[2]] __attribute__((aligned(64))) =
      (float(*)[u_vec->size[1]][u_vec->size[2]])u_vec->data;
  float(*restrict c)[c_vec->size[1]] __attribute__((aligned(64))) =
      (float(*)[c_vec->size[1]])c_vec->data;
#pragma acc enter data copyin(u[0:u_vec->size[0]][0:u_vec->size[1]][0:u_vec->size[2]])
#pragma acc enter data copyin(c[0:c_vec->size[0]][0:c_vec->size[1]])
  for (int time = time_m, t0 = (time) % (2), t1 = (time + 1) % (2); time <= time_M;
       time += 1, t0 = (time) % (2), t1 = (time + 1) % (2)) {
#pragma acc parallel loop collapse(2) present(c, u)
    for (int x = x_m; x <= x_M; x += 1) {
      for (int y = y_m; y <= y_M; y += 1) {
        u[t1][x + 1][y + 1] = u[t0][x + 1][y + 1] +
                              dt * c[x + 1][y + 1] *
                                  (u[t0][x][y + 1] + u[t0][x + 2][y + 1] + u[t0][x + 1][y] +
                                   u[t0][x + 1][y + 2] - 4 * u[t0][x + 1][y + 1]);
      }
    }
  }
#pragma acc exit data copyout(u[0:u_vec->size[0]][0:u_vec->size[1]][0:u_vec->size[2]])
#pragma acc exit data delete(u[0:u_vec->size[0]][0:u_vec->size[1]][0:u_vec->size[2]])
#pragma acc exit data delete(c[0:c_vec->size[0]][0:c_vec->size[1]])
  return 0;
}

/* The same steps without directives, on flat arrays. */
static void reference(float *u, const float *c, int nx, int ny, float dt, int steps) {
  for (int time = 0; time < steps; time++) {
    float *from = u + (time % 2) * nx * ny, *to = u + ((time + 1) % 2) * nx * ny;
    for (int x = 1; x < nx - 1; x++)
      for (int y = 1; y < ny - 1; y++) {
        int at = x * ny + y;
        to[at] = from[at] + dt * c[at] *
                                (from[at - ny] + from[at + ny] + from[at - 1] + from[at + 1] -
                                 4 * from[at]);
      }
  }
}

int main(void) {
  enum { NX = 18, NY = 13, STEPS = 7 };
  int u_size[3] = {2, NX, NY}, c_size[2] = {NX, NY};
  float *u = calloc(2 * NX * NY, sizeof *u), *want = calloc(2 * NX * NY, sizeof *want);
  float *c = malloc(NX * NY * sizeof *c);
  for (int i = 0; i < NX * NY; i++) {
    c[i] = 0.05f + 0.01f * (i % 7);
    u[i] = want[i] = (float)((i * 37) % 11);
  }
  struct dataobj u_vec = {u, u_size}, c_vec = {c, c_size};
  kernel(&u_vec, &c_vec, 0.5f, STEPS - 1, 0, NX - 3, 0, NY - 3, 0);
  reference(want, c, NX, NY, 0.5f, STEPS);
  /* A GPU fuses `a * b + c` into one rounding where the host rounds twice (nvc's and GCC's
     offloading do too, unless told -ffp-contract=off): the answers agree to float's precision,
     not to the last bit. */
  int bad = 0;
  for (int i = 0; i < 2 * NX * NY; i++) bad += fabsf(u[i] - want[i]) > 1e-5f * (1 + fabsf(want[i]));
  free(u);
  free(want);
  free(c);
  if (bad) {
    printf("generated-vla-pointers: %d wrong\n", bad);
    return 1;
  }
  printf("generated-vla-pointers: ok\n");
  return 0;
}
