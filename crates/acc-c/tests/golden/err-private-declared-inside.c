/* Error: a clause names a variable declared inside the construct, where the directive cannot
 * see it (it is each iteration's own already); the note says where it is declared. */
int f(int *out) {
  int j;
#pragma acc parallel loop private(j, dist) copyout(out[0:100])
  for (int i = 0; i < 100; i++) {
    int dist = 0;
    for (j = 0; j < i; j++) dist += j;
    out[i] = dist;
  }
  return 0;
}
