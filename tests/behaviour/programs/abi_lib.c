/* abi_lib.c - a unit with instrumented loads (its object refers to the
   ABI version's symbol); sum () is 10.  */
int g[4] = {1, 2, 3, 4};
int sum (void) { return g[0] + g[1] + g[2] + g[3]; }
