/* A construct's statement whose closing brace a macro gives (`#define SWEEP_END }`, Parboil's
 * style): acc reads the statement as the file writes it, and says so at the macro. A macro
 * whose braces balance, or that has one only in a string, is fine. */
#define SWEEP_END }
#define ZERO_PAIR {0, 0}
#define OPEN_TEXT "{"
void f(int n, float *b, const char **s) {
  #pragma acc parallel loop copy(b[0:n], s[0:n])
  for (int i = 0; i < n; i++) {
    int pair[2] = ZERO_PAIR;
    s[i] = OPEN_TEXT;
    b[i] = 2.0f * b[i] + pair[0];
  }
  #pragma acc parallel loop copy(b[0:n])
  for (int i = 0; i < n; i++) {
    b[i] = 2.0f * b[i];
  SWEEP_END
}
