/* host_data use_device: inside the construct the name stands for the
 * device address, which must equal acc_deviceptr of the host address; the
 * device address handed to a function that uses deviceptr; host_data
 * if(false) keeps the host address; if_present (OpenACC 3.x) with data
 * that is not present keeps the host address too. An array's name (OpenACC 3.3 2.8.1 allows
 * arrays) is its device copy's address, rows and elements included. */
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N 256

static double grid[8][N];

static void triple_on_device(double *dp, int n) {
  #pragma acc parallel loop deviceptr(dp)
  for (int i = 0; i < n; i++)
    dp[i] *= 3.0;
}

int main(void) {
  int n = N, no = 0;
  double *a = malloc(n * sizeof *a), *absent = malloc(n * sizeof *absent);
  double *host_a = a;
  void *dev_a = NULL, *seen = NULL, *seen_if = NULL, *seen_absent = NULL;
  for (int i = 0; i < n; i++) { a[i] = i; absent[i] = 0.0; grid[1][i] = i; }

  #pragma acc data copy(a[0:n])
  {
    dev_a = acc_deviceptr(a);
    #pragma acc host_data use_device(a)
    {
      seen = a;
      triple_on_device(a, n);
    }
    #pragma acc host_data use_device(a) if(no)
    {
      seen_if = a;
    }
    #pragma acc host_data use_device(absent) if_present
    {
      seen_absent = absent;
    }
  }

  void *dev_grid = NULL, *seen_grid = NULL, *seen_row = NULL;
  #pragma acc data copy(grid)
  {
    dev_grid = acc_deviceptr(grid);
    #pragma acc host_data use_device(grid)
    {
      seen_grid = grid;
      seen_row = &grid[2][0];
      triple_on_device(grid[1], n);
    }
  }
  if (dev_grid == NULL || seen_grid != dev_grid ||
      seen_row != (void *)((char *)dev_grid + 2 * sizeof grid[0])) {
    printf("api-host-data: use_device(grid) gave %p, row %p; acc_deviceptr %p\n", seen_grid,
           seen_row, dev_grid);
    return 1;
  }

  if (dev_a == NULL || seen != dev_a) {
    printf("api-host-data: use_device gave %p, acc_deviceptr %p\n", seen, dev_a);
    return 1;
  }
  if (seen_if != (void *)host_a || seen_absent != (void *)absent) {
    printf("api-host-data: if(false) gave %p (host %p), if_present gave %p (host %p)\n", seen_if,
           (void *)host_a, seen_absent, (void *)absent);
    return 1;
  }
  for (int i = 0; i < n; i++)
    if (a[i] != 3.0 * i || grid[1][i] != 3.0 * i) {
      printf("api-host-data: a[%d] = %g, grid[1][%d] = %g\n", i, a[i], i, grid[1][i]);
      return 1;
    }
  printf("api-host-data: ok\n");
  free(a); free(absent);
  return 0;
}
