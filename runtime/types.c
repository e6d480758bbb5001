/* types.c - the element type classes of zeroinst-abi.h, as data.  Every
   per-type decision in the runtime reads this table.  */
#include "runtime.h"

const struct zi_type_info zi_types[ZI_NTYPES] = {
  [ZI_I8]    = { "i8",    ZI_KIND_INT,    1,   0,  0 },
  [ZI_I16]   = { "i16",   ZI_KIND_INT,    2,   0,  0 },
  [ZI_I32]   = { "i32",   ZI_KIND_INT,    4,   0,  0 },
  [ZI_I64]   = { "i64",   ZI_KIND_INT,    8,   0,  0 },
  [ZI_I128]  = { "i128",  ZI_KIND_INT,    16,  0,  0 },
  [ZI_F16]   = { "f16",   ZI_KIND_FLOAT,  2,  10,  5 },
  [ZI_BF16]  = { "bf16",  ZI_KIND_FLOAT,  2,   7,  8 },
  [ZI_F32]   = { "f32",   ZI_KIND_FLOAT,  4,  23,  8 },
  [ZI_F64]   = { "f64",   ZI_KIND_FLOAT,  8,  52, 11 },
  [ZI_F80]   = { "f80",   ZI_KIND_FLOAT,  10, 64, 15 },
  [ZI_F128]  = { "f128",  ZI_KIND_FLOAT,  16, 112, 15 },
  [ZI_OTHER] = { "other", ZI_KIND_OTHER,  0,   0,  0 },
};

const char *
zi_kind_name (enum zi_kind kind)
{
  static const char *const names[ZI_NKINDS] = { "int", "float", "other" };
  return names[kind];
}
