/* scale: 2x + x + 1, through a helper of this file's own, which reads a `declare`d global of
 * this file, and twice (twice.c). */
#include "routines.h"

double one = 1.0;
#pragma acc declare copyin(one)

#pragma acc routine seq
static double plus_one(double x) { return x + one; }

#pragma acc routine seq
double scale(double x) { return plus_one(twice(x) + x); }
