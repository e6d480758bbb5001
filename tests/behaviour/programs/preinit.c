/* preinit.c - loads in .preinit_array code, which runs before every
   constructor, the runtime's included; returns 0.  */
int g[4] = {1, 2, 3, 4};
volatile int sum;
static void early(void) { for (int i = 0; i < 4; i++) sum += g[i]; }
__attribute__((section(".preinit_array"), used)) static void (*pre)(void) = early;
int main(void) { int s = 0; for (int i = 0; i < 4; i++) s += g[i]; return sum != 10 || s != 10; }
