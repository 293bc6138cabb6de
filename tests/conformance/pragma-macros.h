/* The portability macros of pragma-macros.c, as codes that build with and without OpenACC keep
 * them in a header of their own. */
#ifndef PRAGMA_MACROS_H
#define PRAGMA_MACROS_H
#define PM_STRING(...) #__VA_ARGS__
#ifdef _OPENACC
#define ACC(...) _Pragma(PM_STRING(acc __VA_ARGS__))
#define ACC_LOOP _Pragma("acc loop")
#else
#define ACC(...)
#define ACC_LOOP
#endif
#define PM_N 256
#endif
