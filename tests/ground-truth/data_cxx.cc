// Data-centric analysis in C++: static objects named by their demangled
// names (a namespaced global, a static class member), heap objects from
// new[], new of a struct read as an integer and as a double (one record per
// kind), aligned new and nothrow new[] (allocator "new" / "new[]" for all
// variants), and new[] of a class with a destructor, whose array cookie
// (the element count, before the elements) delete[] loads.  Objects are written by main and read by noinline functions
// (-O1: one scalar load per element).  Little-endian byte maps.
// zeroinst-flags: -O1 -g
// zeroinst-env: ZEROINST_MODE=code,data
// expect-records: 9
// expect-data-records: 8
//
// int:   static: table 8/64/50/1 + count 2/8/7/1 = 10/72/57/2
//        heap: arr 10/80/8/1 + nothrow 4/16/12/0 + w.id 1/8/7/0
//        + ts 5/24/19/0 = 20/128/46/1
//        (elements/bytes/redundant/zero)
// float: heap: w.weight 1/8/0/0 + big 8/64/56/7 = 9/72/56/7
// expect-total: int.elements=30 int.bytes=200 int.redundant_bytes=103 int.zero_elements=3
// expect-total: float.elements=9 float.bytes=72 float.redundant_bytes=56 float.zero_elements=7
// expect-data-total: static.int.elements=10 static.int.bytes=72 static.int.redundant_bytes=57 static.int.zero_elements=2
// expect-data-total: heap.int.elements=20 heap.int.bytes=128 heap.int.redundant_bytes=46 heap.int.zero_elements=1
// expect-data-total: heap.float.elements=9 heap.float.bytes=72 heap.float.redundant_bytes=56 heap.float.zero_elements=7
// expect-data-total: static.float.elements=0 stack.int.elements=0 stack.float.elements=0 unknown.int.elements=0 unknown.float.elements=0
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>

#define NOINLINE __attribute__ ((noinline))

// ns::table[i] = i << 8: 0 (8 redundant, a zero element), then 0x100 ..
// 0x700 (bytes 00 0i 00 ..: 6 redundant, 7 zero bytes each): redundant
// 8 + 42 = 50, always zero 8 + 49 = 57; map 8z + 1z, then "1x7z" for
// elements 1..6 (the 7z includes the next element's byte 0), "1x6z".
// expect-data: static=ns::table int size=64 elements=8 bytes=64 redundant_bytes=50 zero_elements=1 never_loaded_bytes=0 always_zero_bytes=57 map=9z1x7z1x7z1x7z1x7z1x7z1x7z1x6z
namespace ns
{
int64_t table[8];
}

// Widget::count = {3, 0, 0, 0}, count[0..1] read: 3 + 4 redundant, one
// zero element; bytes 8..15 never loaded.
// expect-data: static=Widget::count int size=16 elements=2 bytes=8 redundant_bytes=7 zero_elements=1 never_loaded_bytes=8 always_zero_bytes=7 map=1x7z8n
struct Widget
{
  int64_t id;
  double weight;
  static int32_t count[4];
};
int32_t Widget::count[4];

// A destructor (non-trivial, no loads): new[] stores the element count in
// a cookie before the elements.
struct Tracked
{
  int32_t v;
  ~Tracked ();
};
NOINLINE Tracked::~Tracked () { __asm__ volatile ("" ::: "memory"); }

struct alignas (64) Big
{
  double v[8];
};

NOINLINE int64_t
sum64 (const int64_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=18 bytes=144 redundant_bytes=58 zero_elements=2
  return s;
}

NOINLINE int64_t
sum32 (const int32_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=6 bytes=24 redundant_bytes=19 zero_elements=1
  return s;
}

NOINLINE double
sumd (const double *p, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=8 bytes=64 redundant_bytes=56 zero_elements=7
  return s;
}

NOINLINE int64_t
sumt (const Tracked *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i].v;  // expect: elements=4 bytes=16 redundant_bytes=12 zero_elements=0
  return s;
}

NOINLINE double
weigh (const Widget *w)
{
  int64_t id = w->id;  // expect: elements=1 bytes=8 redundant_bytes=7 zero_elements=0
  double x = w->weight;  // expect: elements=1 bytes=8 redundant_bytes=0 zero_elements=0
  return x * 2 + id;
}

int
main (int argc, char **)
{
  int z = argc - 1;  // 0: values cannot be folded
  for (int i = 0; i < 8; i++)
    ns::table[i] = (int64_t) (i + z) << 8;
  Widget::count[0] = 3 + z;

  // new[]: arr[i] = -i: 0 (a zero element, 8 redundant), then -1 .. -9
  // (0xff.. high bytes: 0 redundant).
  // expect-data: heap@new_arr int variable=arr path=main@new_arr allocations=1 size=80 elements=10 bytes=80 redundant_bytes=8 zero_elements=1 never_loaded_bytes=0 always_zero_bytes=8 map=8z72x allocator=new[]
  int64_t *arr = new int64_t[10];  // [[new_arr]]
  for (int i = 0; i < 10; i++)
    arr[i] = -(i + z);

  // new of a struct: id = 7 (7 redundant; bytes 0..7 "1x7z"), weight = 0.5
  // (0x3FE0000000000000: bytes 8..15 "6z2x"); each kind's record has the
  // other member's 8 bytes never loaded.
  // expect-data: heap@new_w int variable=w path=main@new_w allocations=1 size=16 elements=1 bytes=8 redundant_bytes=7 zero_elements=0 never_loaded_bytes=8 always_zero_bytes=7 map=1x7z8n allocator=new
  // expect-data: heap@new_w float variable=w path=main@new_w allocations=1 size=16 elements=1 bytes=8 redundant_bytes=0 zero_elements=0 never_loaded_bytes=8 always_zero_bytes=6 map=8n6z2x allocator=new
  Widget *w = new Widget;  // [[new_w]]
  w->id = 7 + z;
  w->weight = 0.5 + z;

  // Aligned new (operator new (size_t, align_val_t)): v = {1.5, 0 x 7}.
  // 1.5 = 0x3FF8000000000000: "6z2x"; 7 zero elements (56 redundant);
  // always zero 6 + 56 = 62.
  // expect-data: heap@new_big float variable=big path=main@new_big allocations=1 size=64 elements=8 bytes=64 redundant_bytes=56 zero_elements=7 never_loaded_bytes=0 always_zero_bytes=62 map=6z2x56z allocator=new
  Big *big = new Big;  // [[new_big]]
  for (int i = 0; i < 8; i++)
    big->v[i] = 0.0 * z;
  big->v[0] = 1.5 + z;

  // nothrow new[]: {1, 2, 3, 4}, 3 redundant bytes each.
  // expect-data: heap@new_nothrow int variable=nt path=main@new_nothrow allocations=1 size=16 elements=4 bytes=16 redundant_bytes=12 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=12 map=1x3z1x3z1x3z1x3z allocator=new[]
  int32_t *nt = new (std::nothrow) int32_t[4];  // [[new_nothrow]]
  if (!nt)
    abort ();
  for (int i = 0; i < 4; i++)
    nt[i] = i + 1 + z;

  // new Tracked[4]: operator new[] (24): an 8-byte cookie (4) then four
  // v = 1..4.  The object is the whole 24-byte block: the cookie's load by
  // delete[] (7 redundant bytes, "1x7z") and the 4 elements' (3 each,
  // "1x3z"): 5 elements, 24 bytes, redundant and always zero 7 + 12 = 19.
  // expect-data: heap@new_ts int variable=ts path=main@new_ts allocations=1 size=24 elements=5 bytes=24 redundant_bytes=19 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=19 map=1x7z1x3z1x3z1x3z1x3z allocator=new[]
  Tracked *ts = new Tracked[4];  // [[new_ts]]
  for (int i = 0; i < 4; i++)
    ts[i].v = i + 1 + z;

  int64_t s = sum64 (ns::table, 8);
  s += sumt (ts, 4);
  s += sum32 (Widget::count, 2);
  s += sum64 (arr, 10);
  s += sum32 (nt, 4);
  double d = weigh (w) + sumd (big->v, 8);
  std::printf ("%lld %g\n", (long long) s, d);
  delete[] arr;
  delete w;
  delete big;
  delete[] nt;
  delete[] ts;  // expect: elements=1 bytes=8 redundant_bytes=7 zero_elements=0
  return 0;
}
