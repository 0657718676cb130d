// The shared plumbing of a package's fused kernels: the on-chip buffer
// manager is a TPipe member of the base class.
#pragma once
#include "kernel_operator.h"

class KernelBase {
protected:
  AscendC::TPipe pipe_;
  __gm__ int64_t *args_ = nullptr;
};

template <typename Derived>
class StageBase : public KernelBase {};
