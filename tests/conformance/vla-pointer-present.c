/* A pointer to a variable-length array (`float (*v)[ny][nz]`, as stencil codes allocate their
 * grids) named whole in `present(v)` after `enter data` mapped its target: the kernel indexes
 * the device copy through it with every extent. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int nx = 4, ny = 5, nz = 3;
  float (*v)[ny][nz] = malloc(sizeof(float[nx][ny][nz]));
  #pragma acc enter data create(v[0:nx][0:ny][0:nz])
  #pragma acc parallel loop present(v)
  for (int x = 0; x < nx; x++)
    for (int y = 0; y < ny; y++)
      for (int z = 0; z < nz; z++)
        v[x][y][z] = x + 10 * y + 100 * z;
  #pragma acc exit data copyout(v[0:nx][0:ny][0:nz])
  for (int x = 0; x < nx; x++)
    for (int y = 0; y < ny; y++)
      for (int z = 0; z < nz; z++)
        if (v[x][y][z] != x + 10 * y + 100 * z) {
          printf("v[%d][%d][%d] = %g\n", x, y, z, v[x][y][z]);
          return 1;
        }
  printf("vla-pointer-present: ok\n");
  free(v);
  return 0;
}
