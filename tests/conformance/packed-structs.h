/* A record packed by the header that declares it (packed-structs.c). */
#ifndef PACKED_STRUCTS_H
#define PACKED_STRUCTS_H
#pragma pack(push, 1)
typedef struct {
  char tag;
  double value;
  short count;
} packed_record;
#pragma pack(pop)
#endif
