/* Declarations for header-declared.c: a global and the prototypes of the file's functions,
 * as NPB's headers and XSBench's give them. */
#ifndef HEADER_DECLARED_H
#define HEADER_DECLARED_H
#define HD_N 100
double hd_field[HD_N];
int hd_twice(int x);
int hd_plus_one(int x);
#endif
