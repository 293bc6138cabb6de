/* A header whose types matter to data attributes. */
typedef struct {
  double cells[64];
  int n;
} grid_t;
typedef double real;
#define GRID_GANGS 4
