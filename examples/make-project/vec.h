/* vec.h — the two kernels of the example: y = a*x + y, and a dot product. */
#ifndef VEC_H
#define VEC_H

void saxpy(int n, float a, const float *x, float *y);
double dot(int n, const double *x, const double *y);

#endif
