/* `collapse` and `tile` join loops whose trip counts must be known before the nest runs
 * (OpenACC 3.3 2.9.1): a triangular nest is refused, at the inner loop, with what to do; a
 * rectangular one is fine. */
void f(int n, double (*t)[64]) {
  #pragma acc parallel loop collapse(2) copy(t[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) t[i][j] = 1;
  #pragma acc parallel loop tile(8, 8) copy(t[0:n])
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j += 1) t[i][j] = 2;
  #pragma acc parallel loop collapse(2) copy(t[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 64; j++) t[i][j] = 3;
}
