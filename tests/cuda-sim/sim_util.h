/* sim_util.h — what both halves of the simulator do with files and the host compiler:
 * reading and writing whole files, removing a temporary directory, running a command with its
 * output into a log. Static functions, included by libnvrtc.c and libcuda.c. */
#ifndef ACC_SIM_UTIL_H
#define ACC_SIM_UTIL_H

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

extern char **environ;

static int write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(text, 1, len, f);
  return fclose(f) == 0 && w == len ? 0 : -1;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  for (;;) {
    if (!buf) break;
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    char *more = realloc(buf, 2 * cap + 1);
    if (!more) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = more;
    cap *= 2;
  }
  fclose(f);
  if (buf) buf[n] = 0;
  if (len) *len = n;
  return buf;
}

static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d)))
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
      }
    closedir(d);
  }
  rmdir(dir);
}

/* Runs argv[0] with stdout and stderr into `log_path`; its exit status, or -1. */
static int run(char *const argv[], const char *log_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  /* Messages in plain ASCII quotes, whatever the locale, as NVRTC writes them. */
  size_t n = 0;
  while (environ[n]) n++;
  char **envp = malloc((n + 2) * sizeof *envp);
  if (!envp) return -1;
  envp[0] = "LC_ALL=C";
  memcpy(envp + 1, environ, (n + 1) * sizeof *envp);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, envp);
  free(envp);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The host compiler's words, $ACC_SIM_CXX (split at spaces) or `c++`, appended to argv; the
 * returned copy owns them. */
static char *add_compiler(char **argv, int *argc, int max) {
  const char *cxx = getenv("ACC_SIM_CXX") && *getenv("ACC_SIM_CXX") ? getenv("ACC_SIM_CXX") : "c++";
  char *words = strdup(cxx);
  if (!words) return NULL;
  for (char *w = strtok(words, " \t"); w && *argc < max; w = strtok(NULL, " \t")) argv[(*argc)++] = w;
  return words;
}

#endif
