/* Declarations for routine-header-globals.c: globals a program's header defines, which its
 * routines use. */
#ifndef ROUTINE_HEADER_GLOBALS_H
#define ROUTINE_HEADER_GLOBALS_H
typedef double rhg_real;
/* Given a device copy by the .c file's `declare create`, set by `update device`. */
rhg_real rhg_scale;
/* Constants, given device copies by the .c file's `declare copyin`. */
static const rhg_real rhg_offset = 0.25;
static const int rhg_weights[4] = {3, 1, 4, 1};
/* Named like the routines' parameters and locals, which hide it there. */
int rhg_n = 1000;
#endif
