#include "grid.h"

/* grid_t is an aggregate from a header: referenced in a parallel region
 * it gets imp copy (an unknown type would be taken for a scalar and get
 * firstprivate). GRID_GANGS is a constant from the header. */
void step(grid_t g, real scale) {
  #pragma acc parallel num_gangs(GRID_GANGS) vector_length(GRID_GANGS)
  {
    g.cells[0] *= scale;
  }
}
