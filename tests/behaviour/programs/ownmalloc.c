/* ownmalloc.c - a program that defines malloc, free, calloc and realloc
   itself (a bump allocator over a static array), and a destructor that
   writes.  Its own allocator is kept; it returns 0.  */
#include <stddef.h>
#include <string.h>
#include <unistd.h>
static char heap[1 << 26];
static size_t top;
void *malloc(size_t n) { size_t *h = (size_t *)(heap + top); n = (n + 31) & ~(size_t)15; *h = n; top += n; return h + 2; }
void free(void *p) { (void)p; }
void *calloc(size_t a, size_t b) { return memset(malloc(a * b), 0, a * b); }
void *realloc(void *p, size_t n) { void *q = malloc(n); if (p) { size_t o = ((size_t *)p)[-2]; memcpy(q, p, o < n ? o : n); } return q; }
__attribute__((destructor)) static void fini(void) { (void)!write(1, "", 0); }
long data[5000];
int main(void) { long s = 0; for (int i = 0; i < 5000; i++) data[i] = i & 3; for (int i = 0; i < 5000; i++) s += data[i]; return s != 7500; }
