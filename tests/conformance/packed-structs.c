/* Structs laid out under `#pragma pack` (binary file formats, wire records), one by the file
 * and one by its header, copied to the device and read by a kernel: the device's layout must
 * be the host's. The CUDA module had left the pragmas out, so a GPU read every member after
 * the first at the wrong offset. */
#include <stdio.h>

#include "packed-structs.h"

#pragma pack(1)
typedef struct {
  char kind;
  int id;
} packed_header;
#pragma pack()

#define N 16

int main(void) {
  packed_header headers[N];
  packed_record records[N];
  double out[N];
  for (int i = 0; i < N; i++) {
    headers[i].kind = 'h';
    headers[i].id = 100 * i;
    records[i].tag = 'r';
    records[i].value = 1.5 * i;
    records[i].count = (short)i;
  }
#pragma acc parallel loop copyin(headers, records) copyout(out)
  for (int i = 0; i < N; i++)
    out[i] = headers[i].id + records[i].value + records[i].count + (double)sizeof(packed_record);
  int wrong = sizeof(packed_header) != 5 || sizeof(packed_record) != 11;
  for (int i = 0; i < N; i++)
    wrong += out[i] != 100.0 * i + 2.5 * i + 11;
  if (wrong)
    printf("packed-structs: %d wrong\n", wrong);
  else
    printf("packed-structs: ok\n");
  return wrong != 0;
}
