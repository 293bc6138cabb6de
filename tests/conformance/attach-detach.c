/* Pointer members of structs on the device: a data clause on s.data[0:n]
 * after s is present attaches the device copy of s.data (implicit attach);
 * explicit attach and detach clauses on enter data / exit data, on a data
 * construct and on a compute construct, for a pointee made present on its
 * own; a struct holding two pointers (t is present from the enclosing
 * data construct, so its implicit copy on the parallel loop finds it); and
 * detach before the struct goes. */
#include <stdio.h>
#include <stdlib.h>

#define N 200

struct vec { int n; double *data; };
struct two { double *x; double *y; };

int main(void) {
  int n = N;
  struct vec s = {n, malloc(n * sizeof(double))};
  for (int i = 0; i < n; i++) s.data[i] = i;

  /* implicit attach */
  #pragma acc enter data copyin(s)
  #pragma acc enter data copyin(s.data[0:s.n])
  #pragma acc parallel loop present(s)
  for (int i = 0; i < s.n; i++)
    s.data[i] = s.data[i] * 2.0 + 1.0;
  #pragma acc exit data copyout(s.data[0:s.n])
  #pragma acc exit data delete(s)

  /* explicit attach / detach on enter data / exit data */
  double *buf = malloc(n * sizeof *buf);
  for (int i = 0; i < n; i++) buf[i] = -i;
  struct vec w = {n, buf};
  #pragma acc enter data copyin(buf[0:n])
  #pragma acc enter data copyin(w)
  #pragma acc enter data attach(w.data)
  #pragma acc parallel loop present(w)
  for (int i = 0; i < w.n; i++)
    w.data[i] += 100.0;
  #pragma acc exit data detach(w.data)
  #pragma acc exit data delete(w)
  #pragma acc exit data copyout(buf[0:n])

  /* attach on a data construct and on a compute construct */
  struct two t = {malloc(n * sizeof(double)), malloc(n * sizeof(double))};
  for (int i = 0; i < n; i++) { t.x[i] = i * 0.5; t.y[i] = 0.0; }
  #pragma acc data copyin(t.x[0:n])
  {
    #pragma acc data copy(t.y[0:n])
    {
      #pragma acc data copyin(t)
      {
        #pragma acc data attach(t.x)
        {
          #pragma acc parallel loop attach(t.y)
          for (int i = 0; i < n; i++)
            t.y[i] = t.x[i] * 4.0;
        }
      }
    }
  }

  for (int i = 0; i < n; i++) {
    if (s.data[i] != 2.0 * i + 1.0 || buf[i] != 100.0 - i || t.y[i] != 2.0 * i) {
      printf("attach-detach: i=%d s=%g buf=%g t.y=%g\n", i, s.data[i], buf[i], t.y[i]);
      return 1;
    }
  }
  printf("attach-detach: ok\n");
  free(s.data); free(buf); free(t.x); free(t.y);
  return 0;
}
