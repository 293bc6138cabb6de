/* scale: 2x + x + 1, through a helper of this file's own and twice (twice.c). */
#include "routines.h"

#pragma acc routine seq
static double plus_one(double x) { return x + 1.0; }

#pragma acc routine seq
double scale(double x) { return plus_one(twice(x) + x); }
