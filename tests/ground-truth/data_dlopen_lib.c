/* Instrumented shared library that data_shlib.c loads with dlopen
   (libzidl.so; the expectations are in data_shlib.c).  */
#define NOINLINE __attribute__ ((noinline))

double dl_vals[32];

void
dl_fill (int z)
{
  for (int i = 7; i < 32; i += 8)
    dl_vals[i] = 0.25 + z;
}

NOINLINE double
dl_sum (int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += dl_vals[i];  // [[dl_sum_load]]
  return s;
}

double *
dl_ptr (void)
{
  return dl_vals;
}
