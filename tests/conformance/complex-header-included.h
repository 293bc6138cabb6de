/* A program header that brings in the C library's complex arithmetic: the file that includes
 * this one never names that header itself. */
#ifndef COMPLEX_HEADER_INCLUDED_H
#define COMPLEX_HEADER_INCLUDED_H
#include <complex.h>
#endif
