// An extern with no Python stub: no ABI to check against, so silent.
extern "C" __global__ __aicore__ void lonely(__gm__ int64_t *args)
{
    int64_t x = args[0];
    __gm__ int64_t *p = reinterpret_cast<__gm__ int64_t *>(args[99]);
    (void)x; (void)p;
}
