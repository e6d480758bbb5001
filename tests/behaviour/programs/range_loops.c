/* range_loops.c - which loops the plugin versions as range loops: walk's
   array walk with a trip count known on entry is one (its load without a
   range check, and with a shadow half induction variable: 8-byte
   elements stepping by 8); list's walk (no trip count), called's loop
   with a call (it could free the object) and two's loop with two exits
   are not.  */
#include <stdlib.h>
struct n { struct n *next; long v; };
long walk (const long *p, long n) { long s = 0; for (long i = 0; i < n; i++) s += p[i]; return s; }
long list (const struct n *p) { long s = 0; for (; p; p = p->next) s += p->v; return s; }
long called (long *p, long n) { long s = 0; for (long i = 0; i < n; i++) { s += p[i]; free ((void *) p[i]); } return s; }
long two (const long *p, long n) { long s = 0; for (long i = 0; i < n; i++) { if (p[i] < 0) break; s += p[i]; } return s; }
