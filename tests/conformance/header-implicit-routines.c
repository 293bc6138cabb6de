/* A kernel that calls functions its program's header defines without a `routine` directive
 * (`static inline` distance helpers, one calling another, in the style of a k-means code):
 * OpenACC 3.3 2.15.1 gives a function whose definition is in the unit compiled an implicit
 * `routine seq`, and a header's definitions are in it. The header's host-only function, which
 * no kernel calls, stays host code. */
#include "header-implicit-routines.h"

enum { N = 48, D = 3 };

int main(void) {
  float points[N][D], centre[D] = {1.0f, 2.0f, 3.0f}, dist[N];
  for (int i = 0; i < N; i++)
    for (int d = 0; d < D; d++) points[i][d] = (float)((i * (d + 2)) % 7);
#pragma acc parallel loop copyin(points, centre) copyout(dist)
  for (int i = 0; i < N; i++) dist[i] = hir_distance(points[i], centre, D);
  int wrong = 0;
  for (int i = 0; i < N; i++) {
    float s = 0.0f;
    for (int d = 0; d < D; d++) s += (points[i][d] - centre[d]) * (points[i][d] - centre[d]);
    wrong += fabsf(dist[i] - sqrtf(s)) > 1e-5f * (1.0f + sqrtf(s));
  }
  hir_report("header-implicit-routines", wrong);
  return wrong != 0;
}
