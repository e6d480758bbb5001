/* order.c - record order: load_ones runs 4 elements through mid3, mid1
   and mid2, then through deep <- via <- top3, top1 and top2 (in that
   order), and through three chains whose two paths differ only at frame
   6, 10 and 19 (the runtime compares paths four frames at a time, and
   walks past sixteen).  Expected: twelve records with equal redundant
   bytes (4 * 7) and one site, so their paths order them: the chains'
   (b, c, d; each path through its ?u1 before its ?u2), then through
   top1, top2, top3, then mid1, mid2, mid3.  The sink stores keep GCC
   from merging the functions.  */
#include "prelude.h"
/* b1 <- ... <- b4 <- bu2 and bu1: two paths that differ at frame 6 alone.  */
__attribute__ ((noinline)) void b1 (void) { load_ones (4); sink = 100; }
__attribute__ ((noinline)) void b2 (void) { b1 (); sink = 101; }
__attribute__ ((noinline)) void b3 (void) { b2 (); sink = 102; }
__attribute__ ((noinline)) void b4 (void) { b3 (); sink = 103; }
__attribute__ ((noinline)) void bu2 (void) { b4 (); sink = 104; }
__attribute__ ((noinline)) void bu1 (void) { b4 (); sink = 105; }
/* c1 <- ... <- c8 <- cu2 and cu1: two paths that differ at frame 10 alone.  */
__attribute__ ((noinline)) void c1 (void) { load_ones (4); sink = 200; }
__attribute__ ((noinline)) void c2 (void) { c1 (); sink = 201; }
__attribute__ ((noinline)) void c3 (void) { c2 (); sink = 202; }
__attribute__ ((noinline)) void c4 (void) { c3 (); sink = 203; }
__attribute__ ((noinline)) void c5 (void) { c4 (); sink = 204; }
__attribute__ ((noinline)) void c6 (void) { c5 (); sink = 205; }
__attribute__ ((noinline)) void c7 (void) { c6 (); sink = 206; }
__attribute__ ((noinline)) void c8 (void) { c7 (); sink = 207; }
__attribute__ ((noinline)) void cu2 (void) { c8 (); sink = 208; }
__attribute__ ((noinline)) void cu1 (void) { c8 (); sink = 209; }
/* d1 <- ... <- d17 <- du2 and du1: two paths that differ at frame 19 alone.  */
__attribute__ ((noinline)) void d1 (void) { load_ones (4); sink = 300; }
__attribute__ ((noinline)) void d2 (void) { d1 (); sink = 301; }
__attribute__ ((noinline)) void d3 (void) { d2 (); sink = 302; }
__attribute__ ((noinline)) void d4 (void) { d3 (); sink = 303; }
__attribute__ ((noinline)) void d5 (void) { d4 (); sink = 304; }
__attribute__ ((noinline)) void d6 (void) { d5 (); sink = 305; }
__attribute__ ((noinline)) void d7 (void) { d6 (); sink = 306; }
__attribute__ ((noinline)) void d8 (void) { d7 (); sink = 307; }
__attribute__ ((noinline)) void d9 (void) { d8 (); sink = 308; }
__attribute__ ((noinline)) void d10 (void) { d9 (); sink = 309; }
__attribute__ ((noinline)) void d11 (void) { d10 (); sink = 310; }
__attribute__ ((noinline)) void d12 (void) { d11 (); sink = 311; }
__attribute__ ((noinline)) void d13 (void) { d12 (); sink = 312; }
__attribute__ ((noinline)) void d14 (void) { d13 (); sink = 313; }
__attribute__ ((noinline)) void d15 (void) { d14 (); sink = 314; }
__attribute__ ((noinline)) void d16 (void) { d15 (); sink = 315; }
__attribute__ ((noinline)) void d17 (void) { d16 (); sink = 316; }
__attribute__ ((noinline)) void du2 (void) { d17 (); sink = 317; }
__attribute__ ((noinline)) void du1 (void) { d17 (); sink = 318; }
__attribute__ ((noinline)) void mid1 (void) { load_ones (4); sink = 1; }
__attribute__ ((noinline)) void mid2 (void) { load_ones (4); sink = 2; }
__attribute__ ((noinline)) void mid3 (void) { load_ones (4); sink = 3; }
__attribute__ ((noinline)) void deep (void) { load_ones (4); sink = 4; }
__attribute__ ((noinline)) void via (void) { deep (); sink = 5; }
__attribute__ ((noinline)) void top1 (void) { via (); sink = 6; }
__attribute__ ((noinline)) void top2 (void) { via (); sink = 7; }
__attribute__ ((noinline)) void top3 (void) { via (); sink = 8; }
int main (void) { init (); mid3 (); mid1 (); mid2 (); top3 (); top1 (); top2 ();
  bu2 (); bu1 (); cu2 (); cu1 (); du2 (); du1 (); return 0; }
