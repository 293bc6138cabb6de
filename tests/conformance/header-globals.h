/* Declarations for header-globals.c: what a program's own header gives its kernels. */
#ifndef HEADER_GLOBALS_H
#define HEADER_GLOBALS_H
#include <stdio.h>

#define HG_N 300
typedef float hg_real;
typedef struct {
  hg_real x, y;
} hg_point;
enum hg_mode { HG_ADD = 1, HG_MUL = 2 };

long long hg_count = HG_N;
hg_point hg_origin = {1.0f, 2.0f};
/* Unused by the kernels: a GPU compiler could not take it, and need not. */
static FILE *hg_log;
#endif
