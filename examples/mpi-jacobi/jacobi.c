/* mpi-jacobi: a 2-D Jacobi (heat) solver over MPI ranks, with OpenACC kernels.
 *
 * The grid has ROWS interior rows between two fixed boundary rows, and COLS columns of which
 * the first and last are fixed. Rank r owns a contiguous band of interior rows (the first
 * ROWS % size ranks one more) and keeps one ghost row above and below it: the neighbour's row,
 * or the global boundary row at the ends. Every iteration:
 *
 *   1. halo exchange: MPI_Sendrecv of the first and last owned rows with the neighbours;
 *      device-aware (the default on the CPU devices): the device addresses go to MPI inside
 *      `host_data use_device`; staged (JACOBI_MPI_AWARE=0, the default on `nvidia` unless Open
 *      MPI says it is CUDA-aware): `update self` of the two owned edge rows, MPI on the host,
 *      `update device` of the two ghost rows;
 *   2. anew = the average of the four neighbours (each point depends only on the previous
 *      iterate, so the field after K iterations is the same, bit for bit, on any number of
 *      ranks), with the largest change as a max reduction;
 *   3. a = anew on the owned rows (both kernels on async queue 1 of the rank's device, then a
 *      wait).
 *
 * Every CHECK_EVERY iterations (and after the last) the largest change is combined over the
 * ranks with MPI_Allreduce(MPI_MAX); a max is exact, so that too is the same on any number of
 * ranks. Each rank uses device `local_rank % ndevices` of the current type, local_rank being
 * its rank among the ranks of its node (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)).
 *
 * At the end rank 0 gathers the field and prints its FNV-1a hash (over the bytes of every
 * double, boundary included) and the residual in hex, so that runs on different numbers of
 * ranks can be compared; with --check it also runs the same iterations serially on the host
 * and exits 1 unless every value is equal bit for bit.
 *
 * Usage: jacobi [-n ROWS] [-m COLS] [-k ITERS] [--weak] [--check]
 *   --weak: ROWS is per rank (the global grid grows with the ranks: weak scaling).
 * Prints one line per item, `key value`, on rank 0.
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openacc.h>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#define CHECK_EVERY 10

/* The initial value of global row gi (0 and rows + 1 are the boundary), column j. */
static double initial(long gi, long j, long rows, long cols) {
  if (gi == 0) return 1.0;                        /* hot top */
  if (gi == rows + 1) return 0.0;                 /* cold bottom */
  if (j == 0) return 0.5 * (double)gi / (rows + 1); /* warm left edge */
  if (j == cols - 1) return 0.0;
  return 0.0;
}

static uint64_t fnv1a(const double *v, size_t n, uint64_t h) {
  const unsigned char *p = (const unsigned char *)v;
  for (size_t i = 0; i < n * sizeof(double); i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

/* Whether MPI reads and writes device memory: JACOBI_MPI_AWARE=0|1, else yes on the CPU devices
 * (their device memory is this process's memory), and on a GPU what Open MPI says. */
static int mpi_device_aware(void) {
  const char *e = getenv("JACOBI_MPI_AWARE");
  if (e && *e) return atoi(e) != 0;
  if (acc_get_device_type() != acc_device_nvidia) return 1;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support();
#else
  return 0;
#endif
}

static const char *type_name(acc_device_t t) {
  switch (t) {
  case acc_device_host: return "host";
  case acc_device_nvidia: return "nvidia";
  default: return (int)t == 64 ? "host_discrete" : "other";
  }
}

/* The serial iteration on the whole grid, for --check. */
static void serial(double *a, double *anew, long rows, long cols, int iters) {
  for (int it = 0; it < iters; it++) {
    for (long i = 1; i <= rows; i++)
      for (long j = 1; j < cols - 1; j++)
        anew[i * cols + j] = 0.25 * (a[i * cols + j + 1] + a[i * cols + j - 1] +
                                     a[(i - 1) * cols + j] + a[(i + 1) * cols + j]);
    for (long i = 1; i <= rows; i++)
      for (long j = 1; j < cols - 1; j++) a[i * cols + j] = anew[i * cols + j];
  }
}

static void usage(void) {
  fprintf(stderr, "usage: jacobi [-n ROWS] [-m COLS] [-k ITERS] [--weak] [--check]\n");
  MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long rows = 256, cols = 256;
  int iters = 100, weak = 0, check = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) rows = atol(argv[++i]);
    else if (!strcmp(argv[i], "-m") && i + 1 < argc) cols = atol(argv[++i]);
    else if (!strcmp(argv[i], "-k") && i + 1 < argc) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--weak")) weak = 1;
    else if (!strcmp(argv[i], "--check")) check = 1;
    else usage();
  }
  if (weak) rows *= size;
  if (rows < size || cols < 3 || iters < 0) usage();

  /* One device per rank among the ranks of this node. */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int local_rank;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_free(&node);
  acc_device_t type = acc_get_device_type();
  int ndevices = acc_get_num_devices(type);
  if (ndevices > 0) acc_set_device_num(local_rank % ndevices, type);
  int device = acc_get_device_num(type);
  int aware = mpi_device_aware();

  /* This rank's band: owned rows first..first+n-1 (global numbering, 1-based). */
  long n = rows / size + (rank < rows % size ? 1 : 0);
  long first = 1 + rank * (rows / size) + (rank < rows % size ? rank : rows % size);
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

  long len = (n + 2) * cols;
  double *a = malloc(sizeof(double) * len);
  double *anew = malloc(sizeof(double) * len);
  if (!a || !anew) {
    fprintf(stderr, "jacobi: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (long i = 0; i < n + 2; i++)
    for (long j = 0; j < cols; j++)
      a[i * cols + j] = anew[i * cols + j] = initial(first - 1 + i, j, rows, cols);

  double residual = 0.0, t_halo = 0.0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  #pragma acc data copy(a[0:len]) copyin(anew[0:len])
  {
    for (int it = 0; it < iters; it++) {
      double th = MPI_Wtime();
      if (aware) {
        /* Device addresses to MPI (CUDA-aware MPI on a GPU; on the CPU devices the memory
         * MPI reads and writes is the device copy itself). */
        #pragma acc host_data use_device(a)
        {
          MPI_Sendrecv(&a[1 * cols], (int)cols, MPI_DOUBLE, up, 0, &a[(n + 1) * cols],
                       (int)cols, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Sendrecv(&a[n * cols], (int)cols, MPI_DOUBLE, down, 1, &a[0], (int)cols,
                       MPI_DOUBLE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      } else {
        /* Staged through the host: only the rows that travel. */
        #pragma acc update self(a[cols:cols], a[n * cols:cols])
        MPI_Sendrecv(&a[1 * cols], (int)cols, MPI_DOUBLE, up, 0, &a[(n + 1) * cols],
                     (int)cols, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&a[n * cols], (int)cols, MPI_DOUBLE, down, 1, &a[0], (int)cols,
                     MPI_DOUBLE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        #pragma acc update device(a[0:cols], a[(n + 1) * cols:cols])
      }
      t_halo += MPI_Wtime() - th;

      double err = 0.0;
      #pragma acc parallel loop gang reduction(max:err) async(1)
      for (long i = 1; i <= n; i++) {
        #pragma acc loop vector reduction(max:err)
        for (long j = 1; j < cols - 1; j++) {
          anew[i * cols + j] = 0.25 * (a[i * cols + j + 1] + a[i * cols + j - 1] +
                                       a[(i - 1) * cols + j] + a[(i + 1) * cols + j]);
          err = fmax(err, fabs(anew[i * cols + j] - a[i * cols + j]));
        }
      }
      #pragma acc parallel loop collapse(2) async(1)
      for (long i = 1; i <= n; i++)
        for (long j = 1; j < cols - 1; j++) a[i * cols + j] = anew[i * cols + j];
      /* Both kernels run on queue 1 of this rank's device; err and the rows MPI sends next are
       * ready after the wait. */
      #pragma acc wait(1)

      if ((it + 1) % CHECK_EVERY == 0 || it + 1 == iters)
        MPI_Allreduce(&err, &residual, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
  }
  double elapsed = MPI_Wtime() - t0, slowest, halo_slowest;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&t_halo, &halo_slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  /* Each rank's device, as the runtime has it now (after all the queues' work), to rank 0. */
  int *devices = rank == 0 ? malloc(sizeof(int) * size) : NULL;
  int device_now = acc_get_device_num(type);
  if (device_now != device) {
    fprintf(stderr, "jacobi: rank %d chose device %d but ran on %d\n", rank, device, device_now);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Gather(&device_now, 1, MPI_INT, devices, 1, MPI_INT, 0, MPI_COMM_WORLD);

  /* The owned rows of every rank, in order, to rank 0. */
  int *counts = NULL, *displs = NULL;
  double *field = NULL;
  if (rank == 0) {
    counts = malloc(sizeof(int) * size);
    displs = malloc(sizeof(int) * size);
    field = malloc(sizeof(double) * (rows + 2) * cols);
    if (!counts || !displs || !field) {
      fprintf(stderr, "jacobi: out of memory\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int r = 0; r < size; r++) {
      long rn = rows / size + (r < rows % size ? 1 : 0);
      long rfirst = 1 + r * (rows / size) + (r < rows % size ? r : rows % size);
      counts[r] = (int)(rn * cols);
      displs[r] = (int)(rfirst * cols);
    }
  }
  MPI_Gatherv(&a[cols], (int)(n * cols), MPI_DOUBLE, field, counts, displs, MPI_DOUBLE, 0,
              MPI_COMM_WORLD);

  int status = 0;
  if (rank == 0) {
    for (long j = 0; j < cols; j++) {
      field[j] = initial(0, j, rows, cols);
      field[(rows + 1) * cols + j] = initial(rows + 1, j, rows, cols);
    }
    uint64_t hash = fnv1a(field, (size_t)((rows + 2) * cols), 0xcbf29ce484222325ULL);
    long halo_rows = 2L * (size - 1); /* rows sent per iteration, all ranks together */
    printf("ranks %d\n", size);
    printf("device_type %s (%d on rank 0's node)\n", type_name(type), ndevices);
    printf("device_per_rank");
    for (int r = 0; r < size; r++) printf(" %d", devices[r]);
    printf("\n");
    printf("mpi %s\n", aware ? "device-aware (host_data use_device)" : "staged (acc update)");
    printf("grid %ld x %ld\n", rows, cols);
    printf("iterations %d\n", iters);
    printf("time_per_iteration_ms %.4f\n", iters ? 1e3 * slowest / iters : 0.0);
    printf("halo_time_per_iteration_ms %.4f\n", iters ? 1e3 * halo_slowest / iters : 0.0);
    printf("halo_bytes_per_iteration %ld\n", halo_rows * cols * (long)sizeof(double));
    printf("residual %a\n", residual);
    printf("field %016llx\n", (unsigned long long)hash);
    if (check) {
      double *ref = malloc(sizeof(double) * (rows + 2) * cols);
      double *rnew = malloc(sizeof(double) * (rows + 2) * cols);
      if (!ref || !rnew) {
        fprintf(stderr, "jacobi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      for (long i = 0; i < rows + 2; i++)
        for (long j = 0; j < cols; j++)
          ref[i * cols + j] = rnew[i * cols + j] = initial(i, j, rows, cols);
      serial(ref, rnew, rows, cols, iters);
      long bad = 0;
      for (long i = 0; i < (rows + 2) * cols; i++)
        if (memcmp(&ref[i], &field[i], sizeof(double)) != 0) {
          if (bad++ < 5)
            fprintf(stderr, "jacobi: field[%ld][%ld] = %a, serial %a\n", i / cols, i % cols,
                    field[i], ref[i]);
        }
      printf("check %s\n", bad ? "FAILED" : "ok (bit for bit against the serial run)");
      if (bad) status = 1;
      free(ref);
      free(rnew);
    }
    free(counts);
    free(displs);
    free(devices);
    free(field);
  }
  free(a);
  free(anew);
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
