/* dlclose_lib.c - the library of dlclose_threads.c: a table read by
   instrumented code.  */
long lib_table[64] = { 1, 2, 3 };

long
lib_sum (void)
{
  long s = 0;
  for (int i = 0; i < 64; i++)
    s += lib_table[i];
  return s;
}
