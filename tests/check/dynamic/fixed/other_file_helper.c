/* The helper of other_file_host_write.c: plain C, no directives. */
void refresh(double *p, int n) {
  for (int i = 0; i < n; i++) p[i] = 2.0 * i;
}
