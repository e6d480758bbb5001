/* abi_main.c - with abi_lib.c: sets g[0] to argc, returns 0.  */
extern int g[4];
int sum (void);
int main (int argc, char **argv) { g[0] = argc; return sum () - 9 - argc; }
