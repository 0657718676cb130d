// The cost-model simulator builds the kernels on the host and replaces the
// intrinsics with recorders; the device build never defines __COSTMODEL.
#pragma once
#ifdef __COSTMODEL
#define pipe_barrier(...) costmodel_pipe_barrier(__VA_ARGS__)
#endif
