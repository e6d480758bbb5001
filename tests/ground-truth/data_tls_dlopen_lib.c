/* A library with a thread-local array, loaded with dlopen by
   data_tls_dlopen.c: global-dynamic TLS, allocated by the dynamic loader
   at each thread's first use.  */
__thread int ltl[16];

int
lsum (int k)
{
  for (int i = 0; i < 16; i++)
    ltl[i] = i < 2 ? k : 0;
  int s = 0;
  for (int i = 0; i < 16; i++)
    s += ltl[i];  // [[ltl_load]]
  return s;
}
