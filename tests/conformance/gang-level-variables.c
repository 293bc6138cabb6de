/* A gang's variables (declared in its code, or its private and firstprivate copies) are the
 * gang's, shared by its workers and vector lanes (OpenACC 3.3 2.6.1); the gang's own code
 * runs once per gang (2.2.1, gang-redundant, worker- and vector-single). On a GPU acc spreads
 * a gang's vector loops over a block's threads and has every thread run the code around them,
 * each on a copy of the gang's variables. Each case here broke that on the GPU only: a
 * statement that wrote shared data ran on one thread and set only that thread's copy; a
 * vector loop that set a gang scalar (one lane finds an index; an atomic count) set one
 * lane's copy; the code before a vector loop read what the loop's lanes were already
 * writing; the vector loops inside a worker loop wrote a gang array each thread had a copy
 * of. The same one level down for a worker's variables. */
#include <stdio.h>
#define N 48
#define M 96
#define W 8

static int check(const char *what, int errors) {
  if (errors)
    printf("%s: %d wrong\n", what, errors);
  return errors != 0;
}

/* A gang's array set element by element (statements that write only the gang's own data)
 * and read by its vector loop. */
static int set_then_read(void) {
  static int out[N][M];
  int errors = 0;
#pragma acc parallel loop gang copyout(out)
  for (int i = 0; i < N; i++) {
    int c[2];
    c[0] = i;
    c[1] = 10;
#pragma acc loop vector
    for (int j = 0; j < M; j++)
      out[i][j] = c[0] * c[1] + j;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      errors += out[i][j] != i * 10 + j;
  return check("set_then_read", errors);
}

/* One lane finds the index; the gang reads it after the loop. */
static int lane_finds_index(void) {
  static int a[N][M], found[N];
  int errors = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = j == (i * 7) % M;
#pragma acc parallel loop gang copyin(a) copyout(found)
  for (int i = 0; i < N; i++) {
    int where = -1;
#pragma acc loop vector
    for (int j = 0; j < M; j++)
      if (a[i][j])
        where = j;
    found[i] = where;
  }
  for (int i = 0; i < N; i++)
    errors += found[i] != (i * 7) % M;
  return check("lane_finds_index", errors);
}

/* The pivot read before the loop whose lanes overwrite it. */
static int pivot_before_loop(void) {
  static double a[N][M];
  int errors = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = (i + 1) * (j + 2.0);
#pragma acc parallel loop gang copy(a)
  for (int i = 0; i < N; i++) {
    double pivot = a[i][0];
#pragma acc loop vector
    for (int j = 0; j < M; j++)
      a[i][j] /= pivot;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      errors += a[i][j] != (j + 2.0) / 2.0;
  return check("pivot_before_loop", errors);
}

/* A gang's counter that the vector lanes update atomically. */
static int atomic_gang_counter(void) {
  static int a[N][M], counts[N];
  int errors = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = (i + j) % 3 == 0;
#pragma acc parallel loop gang copyin(a) copyout(counts)
  for (int i = 0; i < N; i++) {
    int count = 0;
#pragma acc loop vector
    for (int j = 0; j < M; j++)
      if (a[i][j]) {
#pragma acc atomic update
        count++;
      }
    counts[i] = count;
  }
  for (int i = 0; i < N; i++) {
    int want = 0;
    for (int j = 0; j < M; j++)
      want += (i + j) % 3 == 0;
    errors += counts[i] != want;
  }
  return check("atomic_gang_counter", errors);
}

/* One statement writes shared data and the gang's own scalars. */
static int shared_and_own_in_one_statement(void) {
  static int a[N][M + 1];
  int errors = 0;
#pragma acc parallel loop gang copyout(a)
  for (int i = 0; i < N; i++) {
    int n = 0, x;
    a[i][n++] = x = 100 * i;
#pragma acc loop vector
    for (int j = 0; j < M; j++)
      a[i][j + n] = x + j;
  }
  for (int i = 0; i < N; i++) {
    errors += a[i][0] != 100 * i;
    for (int j = 0; j < M; j++)
      errors += a[i][j + 1] != 100 * i + j;
  }
  return check("shared_and_own_in_one_statement", errors);
}

/* The old value read by every thread, then overwritten once. */
static int read_then_write(void) {
  static int x[N], out[N][M];
  int errors = 0;
  for (int i = 0; i < N; i++)
    x[i] = i;
#pragma acc parallel loop gang copy(x) copyout(out)
  for (int i = 0; i < N; i++) {
    int old = x[i];
    x[i] = old + 1;
#pragma acc loop vector
    for (int j = 0; j < M; j++)
      out[i][j] = old;
  }
  for (int i = 0; i < N; i++) {
    errors += x[i] != i + 1;
    for (int j = 0; j < M; j++)
      errors += out[i][j] != i;
  }
  return check("read_then_write", errors);
}

/* A worker's array set element by element and read by its vector loop. */
static int worker_array(void) {
  static int out[N][W][M];
  int errors = 0;
#pragma acc parallel loop gang num_workers(4) vector_length(32) copyout(out)
  for (int i = 0; i < N; i++) {
#pragma acc loop worker
    for (int w = 0; w < W; w++) {
      int c[2];
      c[0] = i;
      c[1] = w;
#pragma acc loop vector
      for (int j = 0; j < M; j++)
        out[i][w][j] = c[0] * 1000 + c[1] * 100 + j;
    }
  }
  for (int i = 0; i < N; i++)
    for (int w = 0; w < W; w++)
      for (int j = 0; j < M; j++)
        errors += out[i][w][j] != i * 1000 + w * 100 + j;
  return check("worker_array", errors);
}

/* One worker sets the gang's scalar. */
static int worker_sets_gang_scalar(void) {
  static int found[N];
  int errors = 0;
#pragma acc parallel loop gang num_workers(4) copyout(found)
  for (int i = 0; i < N; i++) {
    int f = -1;
#pragma acc loop worker
    for (int w = 0; w < W; w++)
      if (w == i % W)
        f = w;
    found[i] = f;
  }
  for (int i = 0; i < N; i++)
    errors += found[i] != i % W;
  return check("worker_sets_gang_scalar", errors);
}

/* The gang's private array written by the vector loops of one worker loop and read, in
 * another order, by those of the next (PittPack's transposes): the vector loops inside a
 * worker loop write the gang's data too. */
static int workers_vector_loops_write_gang_array(void) {
  static int out[N][W * 32];
  int tmp[W * 32];
  int errors = 0;
#pragma acc parallel loop gang private(tmp) copyout(out) num_workers(4) vector_length(32)
  for (int i = 0; i < N; i++) {
#pragma acc loop worker
    for (int w = 0; w < W; w++)
#pragma acc loop vector
      for (int j = 0; j < 32; j++)
        tmp[w * 32 + j] = i * 1000 + w * 32 + j;
#pragma acc loop worker
    for (int w = 0; w < W; w++)
#pragma acc loop vector
      for (int j = 0; j < 32; j++)
        out[i][w * 32 + j] = tmp[W * 32 - 1 - (w * 32 + j)];
  }
  for (int i = 0; i < N; i++)
    for (int k = 0; k < W * 32; k++)
      errors += out[i][k] != i * 1000 + W * 32 - 1 - k;
  return check("workers_vector_loops_write_gang_array", errors);
}

int main(void) {
  int bad = set_then_read() + lane_finds_index() + pivot_before_loop() + atomic_gang_counter() +
            shared_and_own_in_one_statement() + read_then_write() + worker_array() +
            worker_sets_gang_scalar() + workers_vector_loops_write_gang_array();
  if (!bad)
    printf("gang-level-variables: ok\n");
  return bad != 0;
}
