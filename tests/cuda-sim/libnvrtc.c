/* libnvrtc.c — acc's CUDA simulator, compiler half: a fake libnvrtc.so.12 whose "compilation"
 * runs the host C++ compiler on the CUDA source with shim.h force-included, producing a shared
 * object that the fake libcuda loads. The image it hands back (as PTX for compute_XY, as a
 * CUBIN for sm_XY) is an `acc_sim_image` header followed by the object's bytes.
 *
 * The compiler is $ACC_SIM_CXX (split at spaces), else `c++`; $ACC_SIM_CXXFLAGS adds options.
 * Its diagnostics are the program log, as NVRTC's are. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim_api.h"
#include "sim_util.h"

#define API __attribute__((visibility("default")))

#ifndef ACC_SIM_DIR
#error "build with -DACC_SIM_DIR=\"<directory of shim.h>\""
#endif


typedef int nvrtcResult;
enum {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_OUT_OF_MEMORY = 1,
  NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_INVALID_OPTION = 5,
  NVRTC_ERROR_COMPILATION = 6,
  NVRTC_ERROR_INTERNAL_ERROR = 11,
};

#define PROGRAM_MAGIC 0x50524f47u

struct program {
  unsigned magic;
  char *source;
  char *name;
  char *log;
  unsigned char *image;
  size_t image_size;
  int cubin; /* compiled for sm_XY (a CUBIN) rather than compute_XY (PTX) */
};
typedef struct program *nvrtcProgram;

static const int ARCHS[] = {50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 120};

API const char *nvrtcGetErrorString(nvrtcResult r) {
  switch (r) {
  case NVRTC_SUCCESS: return "NVRTC_SUCCESS";
  case NVRTC_ERROR_OUT_OF_MEMORY: return "NVRTC_ERROR_OUT_OF_MEMORY";
  case NVRTC_ERROR_PROGRAM_CREATION_FAILURE: return "NVRTC_ERROR_PROGRAM_CREATION_FAILURE";
  case NVRTC_ERROR_INVALID_INPUT: return "NVRTC_ERROR_INVALID_INPUT";
  case NVRTC_ERROR_INVALID_PROGRAM: return "NVRTC_ERROR_INVALID_PROGRAM";
  case NVRTC_ERROR_INVALID_OPTION: return "NVRTC_ERROR_INVALID_OPTION";
  case NVRTC_ERROR_COMPILATION: return "NVRTC_ERROR_COMPILATION";
  default: return "NVRTC_ERROR_INTERNAL_ERROR";
  }
}

API nvrtcResult nvrtcVersion(int *major, int *minor) {
  if (!major || !minor) return NVRTC_ERROR_INVALID_INPUT;
  *major = 12;
  *minor = 9;
  return NVRTC_SUCCESS;
}

API nvrtcResult nvrtcGetNumSupportedArchs(int *n) {
  if (!n) return NVRTC_ERROR_INVALID_INPUT;
  *n = (int)(sizeof ARCHS / sizeof ARCHS[0]);
  return NVRTC_SUCCESS;
}

API nvrtcResult nvrtcGetSupportedArchs(int *archs) {
  if (!archs) return NVRTC_ERROR_INVALID_INPUT;
  memcpy(archs, ARCHS, sizeof ARCHS);
  return NVRTC_SUCCESS;
}

API nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name,
                                   int num_headers, const char *const *headers,
                                   const char *const *include_names) {
  (void)headers;
  (void)include_names;
  if (!prog || !src) return NVRTC_ERROR_INVALID_INPUT;
  if (num_headers != 0) return NVRTC_ERROR_INVALID_INPUT; /* not simulated */
  struct program *p = calloc(1, sizeof *p);
  if (!p) return NVRTC_ERROR_OUT_OF_MEMORY;
  p->magic = PROGRAM_MAGIC;
  p->source = strdup(src);
  p->name = strdup(name && *name ? name : "default_program");
  p->log = strdup("");
  if (!p->source || !p->name || !p->log) return NVRTC_ERROR_OUT_OF_MEMORY;
  *prog = p;
  return NVRTC_SUCCESS;
}

static int valid(nvrtcProgram p) { return p && p->magic == PROGRAM_MAGIC; }

API nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog) {
  if (!prog || !valid(*prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  struct program *p = *prog;
  p->magic = 0;
  free(p->source);
  free(p->name);
  free(p->log);
  free(p->image);
  free(p);
  *prog = NULL;
  return NVRTC_SUCCESS;
}

/* ---- compiling --------------------------------------------------------------------------------- */

static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Appends to `out` one entry per `__global__` function of `src`: a wrapper the driver calls
 * with cuLaunchKernel's parameter array. Comments, string and character literals are skipped,
 * so only real declarations count; a name declared twice gets one wrapper. */
static char *entry_wrappers(const char *src) {
  size_t cap = 4096, n = 0;
  char *out = malloc(cap);
  char names[512][128];
  int count = 0;
  if (!out) return NULL;
  out[0] = 0;
  for (const char *p = src; *p;) {
    if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n') p++;
    } else if (p[0] == '/' && p[1] == '*') {
      const char *e = strstr(p + 2, "*/");
      p = e ? e + 2 : p + strlen(p);
    } else if (*p == '"' || *p == '\'') {
      char q = *p++;
      while (*p && *p != q) p += (*p == '\\' && p[1]) ? 2 : 1;
      if (*p) p++;
    } else if (ident_char(*p)) {
      const char *start = p;
      while (ident_char(*p)) p++;
      if (p - start != 10 || strncmp(start, "__global__", 10) != 0 ||
          (start > src && ident_char(start[-1])))
        continue;
      /* __global__ void [__launch_bounds__(...)] NAME ( */
      const char *q = p;
      while (*q == ' ' || *q == '\t' || *q == '\n') q++;
      if (strncmp(q, "void", 4) != 0 || ident_char(q[4])) continue;
      q += 4;
      while (*q == ' ' || *q == '\t' || *q == '\n') q++;
      if (!strncmp(q, "__launch_bounds__", 17) && !ident_char(q[17])) {
        q = strchr(q, ')');
        if (!q) continue;
        q++;
        while (*q == ' ' || *q == '\t' || *q == '\n') q++;
      }
      const char *name = q;
      while (ident_char(*q)) q++;
      size_t len = (size_t)(q - name);
      while (*q == ' ' || *q == '\t' || *q == '\n') q++;
      if (len == 0 || len >= 128 || *q != '(') continue;
      int seen = 0;
      for (int i = 0; i < count; i++) seen |= strlen(names[i]) == len && !strncmp(names[i], name, len);
      if (seen || count == 512) continue;
      memcpy(names[count], name, len);
      names[count++][len] = 0;
      size_t need = n + 3 * len + 200;
      if (need > cap) {
        cap = 2 * need;
        char *more = realloc(out, cap);
        if (!more) {
          free(out);
          return NULL;
        }
        out = more;
      }
      n += (size_t)sprintf(out + n,
                           "__ACC_SIM_EXPORT void __acc_sim_entry_%.*s(void **p) { "
                           "__acc_sim_invoke(%.*s, p); }\n",
                           (int)len, name, (int)len, name);
    } else {
      p++;
    }
  }
  return out;
}

static void set_log(struct program *p, char *log) {
  free(p->log);
  p->log = log ? log : strdup("");
}

/* Appends the words of `s` (split at spaces) to argv. */
static void add_words(char **argv, int *argc, int max, char *s) {
  for (char *w = strtok(s, " \t"); w && *argc < max; w = strtok(NULL, " \t")) argv[(*argc)++] = w;
}

API nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int num_options,
                                    const char *const *options) {
  if (!valid(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (num_options < 0 || (num_options > 0 && !options)) return NVRTC_ERROR_INVALID_INPUT;
  int arch = 52, cubin = 0, relocatable = 0, fmad = 1;
  char standard[32] = "-std=c++17";
  char *argv[256];
  int argc = 0;
  char *cxx = NULL;
  char *flags = strdup(getenv("ACC_SIM_CXXFLAGS") ? getenv("ACC_SIM_CXXFLAGS") : "");
  char defines[64][256];
  int ndefines = 0;
  for (int i = 0; i < num_options; i++) {
    const char *o = options[i];
    if (!o) return NVRTC_ERROR_INVALID_OPTION;
    const char *a = NULL;
    if (!strncmp(o, "--gpu-architecture=", 19)) a = o + 19;
    else if (!strncmp(o, "-arch=", 6)) a = o + 6;
    if (a) {
      if (!strncmp(a, "sm_", 3)) cubin = 1, a += 3;
      else if (!strncmp(a, "compute_", 8)) cubin = 0, a += 8;
      else return NVRTC_ERROR_INVALID_OPTION;
      arch = atoi(a);
      int known = 0;
      for (size_t k = 0; k < sizeof ARCHS / sizeof ARCHS[0]; k++) known |= ARCHS[k] == arch;
      if (!known) {
        char *log = NULL;
        if (asprintf(&log, "nvrtc: error: invalid value for --gpu-architecture (-arch)\n") < 0)
          log = NULL;
        set_log(prog, log);
        return NVRTC_ERROR_INVALID_OPTION;
      }
    } else if (!strcmp(o, "-rdc=true") || !strcmp(o, "--relocatable-device-code=true")) {
      relocatable = 1;
    } else if (!strncmp(o, "-std=c++", 8) || !strncmp(o, "--std=c++", 9)) {
      snprintf(standard, sizeof standard, "-std=%s", strchr(o, '=') + 1);
    } else if (!strcmp(o, "--fmad=false") || !strcmp(o, "-fmad=false")) {
      fmad = 0;
    } else if (!strcmp(o, "--fmad=true") || !strcmp(o, "-fmad=true")) {
      fmad = 1;
    } else if ((!strncmp(o, "-D", 2) || !strncmp(o, "--define-macro=", 15)) && ndefines < 64) {
      snprintf(defines[ndefines++], 256, "-D%s", o[1] == 'D' ? o + 2 : o + 15);
    }
    /* Other options (-lineinfo, -G, --use_fast_math, ...) change nothing here. */
  }
  char dir[] = "/tmp/acc-sim-nvrtc-XXXXXX";
  const char *tmp = getenv("TMPDIR");
  char dirbuf[4096];
  snprintf(dirbuf, sizeof dirbuf, "%s/acc-sim-nvrtc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  char *d = mkdtemp(dirbuf);
  if (!d) d = mkdtemp(dir);
  if (!d) return NVRTC_ERROR_INTERNAL_ERROR;
  /* The source keeps the program's name (its base name), which the log then shows. */
  const char *base = strrchr(prog->name, '/') ? strrchr(prog->name, '/') + 1 : prog->name;
  char src[4096], obj[4096], logp[4096], shim[4096], inc[4096], archdef[64];
  snprintf(src, sizeof src, "%s/%s", d, *base ? base : "default_program");
  snprintf(obj, sizeof obj, "%s/%s", d, relocatable ? "kernel.o" : "kernel.so");
  snprintf(logp, sizeof logp, "%s/log", d);
  const char *sim_dir = getenv("ACC_SIM_DIR") && *getenv("ACC_SIM_DIR") ? getenv("ACC_SIM_DIR")
                                                                          : ACC_SIM_DIR;
  snprintf(shim, sizeof shim, "%s/shim.h", sim_dir);
  snprintf(inc, sizeof inc, "-I%s", sim_dir);
  snprintf(archdef, sizeof archdef, "-D__CUDA_ARCH__=%d", arch * 10);
  char *wrappers = entry_wrappers(prog->source);
  char *unit_text = NULL;
  nvrtcResult result = NVRTC_ERROR_INTERNAL_ERROR;
  /* The entries follow the source in the same unit: their templates need the kernels'
   * signatures. */
  if (!wrappers || asprintf(&unit_text, "%s\n#line 1 \"<acc-sim entries>\"\n%s", prog->source,
                            wrappers) < 0)
    goto done;
  if (write_file(src, unit_text, strlen(unit_text)) != 0) goto done;
  cxx = add_compiler(argv, &argc, 200);
  /* NVRTC's C++ has no variable-length arrays, which GCC's allows: refused here too (the log
   * shows only when compiling fails, so GCC's other warnings stay unseen). */
  const char *fixed[] = {standard, "-O1", "-g0", "-fPIC", "-Werror=vla",
                         "-fno-strict-aliasing", "-fvisibility=hidden"};
  /* Relocatable device code is an object for cuLinkComplete to link (libcuda.c), with the
   * shim's per-module state shared by the objects of one link (see shim.h). */
  const char *whole[] = {"-shared", "-Wl,-Bsymbolic"};
  const char *part[] = {"-c", "-D__ACC_SIM_RDC=1"};
  for (size_t k = 0; k < 2; k++) argv[argc++] = (char *)(relocatable ? part : whole)[k];
  for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) argv[argc++] = (char *)fixed[k];
  /* NVRTC contracts `a * b + c` into a fused multiply-add unless told `--fmad=false`: so do the
   * kernels here, where the CPU has the instruction (GCC forms FMAs at -O2's "expensive
   * optimizations"), so that a program whose answer depends on the rounding shows it. */
  if (fmad && __builtin_cpu_supports("fma")) {
    argv[argc++] = "-ffp-contract=fast";
    argv[argc++] = "-mfma";
    argv[argc++] = "-fexpensive-optimizations";
  } else {
    argv[argc++] = "-ffp-contract=off";
  }
  argv[argc++] = "-include";
  argv[argc++] = shim;
  argv[argc++] = inc;
  argv[argc++] = archdef;
  for (int k = 0; k < ndefines; k++) argv[argc++] = defines[k];
  add_words(argv, &argc, 240, flags);
  argv[argc++] = "-o";
  argv[argc++] = obj;
  argv[argc++] = "-x";
  argv[argc++] = "c++";
  argv[argc++] = src;
  if (!relocatable) {
    argv[argc++] = "-x";
    argv[argc++] = "none";
    argv[argc++] = "-lm";
  }
  argv[argc] = NULL;
  int status = run(argv, logp);
  char *log = read_file(logp, NULL);
  if (status == -1) {
    free(log);
    if (asprintf(&log, "acc-sim: cannot run the host compiler `%s`\n", argv[0]) < 0) log = NULL;
  } else if (log) {
    /* Paths in the temporary directory read as the program's own names, as NVRTC's do. */
    size_t dl = strlen(d);
    char *w = log;
    for (char *r = log; *r;) {
      if (!strncmp(r, d, dl) && r[dl] == '/')
        r += dl + 1;
      else
        *w++ = *r++;
    }
    *w = 0;
  }
  set_log(prog, log);
  if (status != 0) {
    result = NVRTC_ERROR_COMPILATION;
    goto done;
  }
  size_t so_len = 0;
  char *so = read_file(obj, &so_len);
  if (!so) goto done;
  free(prog->image);
  prog->image_size = sizeof(struct acc_sim_image) + so_len;
  prog->image = malloc(prog->image_size);
  if (!prog->image) {
    free(so);
    result = NVRTC_ERROR_OUT_OF_MEMORY;
    goto done;
  }
  struct acc_sim_image h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, ACC_SIM_MAGIC, 8);
  h.abi = ACC_SIM_ABI;
  h.arch = (unsigned)arch;
  h.so_bytes = so_len;
  h.relocatable = (unsigned)relocatable;
  memcpy(prog->image, &h, sizeof h);
  memcpy(prog->image + sizeof h, so, so_len);
  free(so);
  prog->cubin = cubin;
  result = NVRTC_SUCCESS;
done:
  if (!getenv("ACC_SIM_KEEP")) remove_tree(d);
  free(wrappers);
  free(unit_text);
  free(cxx);
  free(flags);
  return result;
}

API nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *size) {
  if (!valid(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (!size) return NVRTC_ERROR_INVALID_INPUT;
  *size = strlen(prog->log) + 1;
  return NVRTC_SUCCESS;
}

API nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log) {
  if (!valid(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (!log) return NVRTC_ERROR_INVALID_INPUT;
  memcpy(log, prog->log, strlen(prog->log) + 1);
  return NVRTC_SUCCESS;
}

/* PTX exists after a compute_XY compile, a CUBIN after an sm_XY one, as with NVRTC. */
static nvrtcResult image_size(nvrtcProgram prog, int cubin, size_t *size) {
  if (!valid(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (!size) return NVRTC_ERROR_INVALID_INPUT;
  if (!prog->image || prog->cubin != cubin) return NVRTC_ERROR_INVALID_PROGRAM;
  *size = prog->image_size;
  return NVRTC_SUCCESS;
}

static nvrtcResult image(nvrtcProgram prog, int cubin, char *out) {
  size_t size;
  nvrtcResult r = image_size(prog, cubin, &size);
  if (r) return r;
  if (!out) return NVRTC_ERROR_INVALID_INPUT;
  memcpy(out, prog->image, size);
  return NVRTC_SUCCESS;
}

API nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *size) { return image_size(prog, 0, size); }
API nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx) { return image(prog, 0, ptx); }
API nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *size) {
  return image_size(prog, 1, size);
}
API nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin) { return image(prog, 1, cubin); }
