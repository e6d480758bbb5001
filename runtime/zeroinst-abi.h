/* zeroinst-abi.h - the contract between the plugin's generated code and the
   runtime.  Both sides include this file; nothing else is shared.

   Generated code (see plugin/instrument.cc) appends one 32-byte entry per
   loaded element to a thread-local buffer chosen by the element's type class:

       cur = __zeroinst_buf[2*T];  end = __zeroinst_buf[2*T + 1];
       if (cur + 32*K > end) cur = __zeroinst_refill (T, K);
       cur[0..K-1] = { &site, address, value_lo, value_hi };
       __zeroinst_buf[2*T] = cur + 32*K;

   A thread starts with cur == end == NULL, so its first append calls the
   runtime, which allocates the buffers.  The runtime never decodes a type at
   run time: the buffer an entry sits in says what it is.

   Each load site has one static descriptor (struct zi_site) emitted by the
   plugin into section "zeroinst_sites".  Its address is the site id; the
   runtime writes a dense slot number into it the first time it sees it, so
   per-thread counters are an array indexed by slot, not a hash table.  */

#ifndef ZEROINST_ABI_H
#define ZEROINST_ABI_H

#include <stdint.h>

#define ZI_ABI_VERSION 1
#define ZI_ENTRY_BYTES 32
#define ZI_SITE_SECTION "zeroinst_sites"

/* Element type classes; one buffer per class.  The order is ABI.  */
enum zi_type {
  ZI_I8, ZI_I16, ZI_I32, ZI_I64, ZI_I128,   /* integers and pointers, raw bits */
  ZI_F16, ZI_BF16, ZI_F32, ZI_F64,          /* IEEE binary16, bfloat16, binary32, binary64 */
  ZI_F80,                                   /* x87 extended (value in lo + low 16 bits of hi) */
  ZI_F128,                                  /* IEEE binary128 */
  ZI_OTHER,                                 /* aggregate copies and values not analysed:
                                               value_lo holds the byte count */
  ZI_NTYPES
};

/* One buffered element.  Values narrower than 64 bits are zero-extended
   raw bits; 128-bit values use both halves.  */
struct zi_entry {
  const struct zi_site *site;
  uint64_t addr;      /* address of the element, 0 when not in addressable memory */
  uint64_t lo, hi;
};

/* Static per-site descriptor.  Layout is ABI (the plugin builds the same
   record type field by field).  */
struct zi_site {
  int32_t slot;             /* 0 = not yet seen; written by the runtime */
  uint8_t type;             /* enum zi_type of each element */
  uint8_t lanes;            /* elements per load: vector lanes, 2 for complex */
  uint16_t access_bytes;    /* bytes the load reads (bytes of the whole value) */
  uint32_t line, column;
  const char *file;
  const char *function;     /* source function, clone suffixes stripped */
  const char *expr;         /* source expression text, "" when unknown */
};

#define ZI_EXPORT __attribute__ ((visibility ("default")))
#ifdef __cplusplus
extern "C" {
#endif
/* Thread-local cursors: [2*T] is the next free entry, [2*T+1] the end.  */
extern __thread struct zi_entry *__zeroinst_buf[2 * ZI_NTYPES] ZI_EXPORT;
/* Process the buffer of class TYPE, return a cursor with room for NEED entries. */
struct zi_entry *__zeroinst_refill (unsigned type, unsigned need) ZI_EXPORT;
/* Out-of-line mode: one call per element.  */
void __zeroinst_record (const struct zi_site *site, uint64_t addr, uint64_t lo,
                        uint64_t hi) ZI_EXPORT;
#ifdef __cplusplus
}
#endif

#endif
