/* heat.h: the C kernels' entry points, called from Rust (src/main.rs). */
#ifndef HEAT_H
#define HEAT_H

/* `steps` explicit steps of the 1-D heat equation on u[0:n] (the ends are
 * fixed), with tmp[0:n] as scratch; the data stays on the device for all
 * steps. */
void heat_run(int n, int steps, double alpha, double *u, double *tmp);

/* The sum of u[0:n], as a reduction. */
double heat_sum(int n, const double *u);

#endif
