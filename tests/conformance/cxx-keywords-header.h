/* Names C++ reserves, given a C meaning by a header of the program's own (Rodinia's
 * streamcluster.h, NPB's type.h). */
typedef int bool;
typedef enum { false, true } logical;
