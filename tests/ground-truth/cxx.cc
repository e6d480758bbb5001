// C++: a template, an array of structs, and an inlined member function
// (the site's function is the inlined callee, at its own line).
// zeroinst-flags: -O1
// expect-total: float.elements=16 float.bytes=128 float.redundant_bytes=96 float.zero_elements=12
// expect-total: int.elements=14 int.bytes=82 int.redundant_bytes=70 int.zero_elements=4
#include <cstdint>
#include <cstdio>

struct Particle { double x, y; int64_t id; };
Particle parts[8];          // x = 1.5 for odd i else 0.0, y = 0.0, id = i
uint16_t small[5] = { 0, 1, 256, 0xffff, 0 };   // 2 + 1 + 0 + 0 + 2 = 5 redundant, 2 zeros
int64_t table[4] = { 0, 0, 3, 0 };              // pick (0) reads table[0] = 0: 8 redundant, 1 zero

template <typename T> __attribute__ ((noinline)) T total (const T *p, int n) { T s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }  // expect: elements=5 bytes=10 redundant_bytes=5 zero_elements=2 redmap=xx elem_type=i16

// x: 4 zeros, y: 8 zeros, 8 bytes each
__attribute__ ((noinline)) double sumxy (int n) { double s = 0; for (int i = 0; i < n; i++) s += parts[i].x + parts[i].y; return s; }  // expect: elements=16 bytes=128 redundant_bytes=96 zero_elements=12
// ids 0..7: 8 + 7 * 7 = 57 redundant, 1 zero
__attribute__ ((noinline)) int64_t sumid (int n) { int64_t s = 0; for (int i = 0; i < n; i++) s += parts[i].id; return s; }  // expect: elements=8 bytes=64 redundant_bytes=57 zero_elements=1

struct Lookup {
  const int64_t *p;
  int64_t get (int i) const { return p[i]; }  // expect: function=Lookup::get elements=1 bytes=8 redundant_bytes=8 zero_elements=1
};
__attribute__ ((noinline)) int64_t pick (int i) { Lookup l = { table }; return l.get (i); }

int
main (int argc, char **)
{
  for (int i = 0; i < 8; i++)
    parts[i] = Particle{ i % 2 ? 1.5 : 0.0, 0.0, i };
  std::printf ("%d %g %lld %lld\n", total (small, 5), sumxy (8), (long long) sumid (8),
               (long long) pick (argc - 1));
  return 0;
}
