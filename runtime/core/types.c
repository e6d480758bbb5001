/* types.c - the element classes of zeroinst-classes.def, as data: every
   per-class decision of the runtime reads this table.  */
#include "core/core.h"

const struct zi_type_info zi_types[ZI_NTYPES] = {
#define ZI_CLASS(ID, NAME, KIND, BYTES, SIZE, P, MANT, EXP, HI_MASK, SIGN_LO, SIGN_HI) \
  [ZI_##ID] = { NAME, ZI_KIND_##KIND, BYTES, MANT, EXP, HI_MASK, SIGN_LO, SIGN_HI },
#include "zeroinst-classes.def"
#undef ZI_CLASS
};

/* What generated code of this version refers to (zeroinst-abi.h).  */
const char ZI_ABI_SYMBOL = ZI_ABI_VERSION;
_Static_assert (ZI_MAX_LANES <= UINT8_MAX, "zi_site.lanes has 8 bits");

const char *
zi_kind_name (enum zi_kind kind)
{
  static const char *const names[ZI_NKINDS] = { "int", "float", "other" };
  return names[kind];
}
