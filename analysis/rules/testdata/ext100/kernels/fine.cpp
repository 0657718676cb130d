extern "C" __global__ __aicore__ void fine(__gm__ int64_t *args)
{
    (void)args;
}
