/* Error: no branch into or out of a compute construct. */
int f(int n, double *a) {
  for (int k = 0; k < n; ++k) {
    #pragma acc parallel copy(a[0:n])
    {
      if (a[0] > 0)
        return 1;
      if (a[1] > 0)
        break;
      if (a[2] > 0)
        goto out;
      for (int i = 0; i < n; ++i)
        if (a[i] < 0)
          break;
    }
  }
out:
  return 0;
}
