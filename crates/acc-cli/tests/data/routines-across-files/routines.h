/* Routines that kernels of several files call, each defined in one file (routines-across-files:
 * scale.c defines scale, twice.c defines twice). */
#ifndef ROUTINES_H
#define ROUTINES_H
#pragma acc routine seq
double scale(double x);
#pragma acc routine seq
double twice(double x);
int twice_all(double *a, int n);
#endif
