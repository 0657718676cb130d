// Standalone kernels that seed a matrix's diagonal on every core: a
// grid-stride loop over the rows, each core storing row r's diagonal
// element. Two neighbouring cores' elements are (n + 1) elements apart:
// for a small matrix, several cores' elements share a 64-byte line.
#include "kernel_operator.h"

using namespace AscendC;

class Eye {
public:
  __aicore__ inline Eye() : core_(GetBlockIdx()), cores_(GetBlockNum()) {}
  __aicore__ inline void Init(GM_ADDR q, int n) {
    n_ = n;
    qGm.SetGlobalBuffer((__gm__ float *)q, n * n);
    for (int r = core_; r < n_; r += cores_) {
      qGm(r * n_ + r) = 1.0f; // want "EXT013 .*`qGm\\(r \\* n_ \\+ r\\)` stores to a GM slot \\(n_ \\+ 1\\) × 4 bytes from the next core's.*while `n_` is below 15"
    }
  }
  // The stride alone (`r * 3 + r`) is 4 elements, not 1 or 3.
  __aicore__ inline void Tag(GM_ADDR t) {
    tGm.SetGlobalBuffer((__gm__ int32_t *)t, 64);
    for (int r = core_; r < 16; r += cores_) {
      tGm.SetValue(r * 3 + r, 7); // want "EXT013 .*16 bytes from the next core's \\(`core_` steps 4 × 4-byte `int32_t`\\)"
    }
  }

private:
  int n_;
  const uint32_t core_, cores_;
  GlobalTensor<float> qGm;
  GlobalTensor<int32_t> tGm;
};

extern "C" __global__ __aicore__ void eye(GM_ADDR q, int n) {
  Eye k;
  k.Init(q, n);
}

// Fixed: one core seeds a small matrix; the others split a matrix whose
// rows are 16 elements or more, so neighbouring diagonal elements are at
// least 68 bytes apart.
class EyeFixed {
public:
  __aicore__ inline EyeFixed() : core_(GetBlockIdx()), cores_(GetBlockNum()) {}
  __aicore__ inline void Init(GM_ADDR q, int n) {
    n_ = n;
    qGm.SetGlobalBuffer((__gm__ float *)q, n * n);
    if (n_ < 16) {
      if (core_ == 0) {
        for (int r = 0; r < n_; r++) {
          qGm(r * n_ + r) = 1.0f;
        }
      }
    } else {
      for (int r = core_; r < n_; r += cores_) {
        qGm(r * n_ + r) = 1.0f;
      }
    }
  }
  // The same bound from an early return.
  __aicore__ inline void Reset(int n) {
    if (n < 16) {
      return;
    }
    for (int r = core_; r < n; r += cores_) {
      qGm(r * n + r) = 0.0f;
    }
  }
  // A constant stride of a whole line: 15 + 1 elements.
  __aicore__ inline void Tag(GM_ADDR t) {
    tGm.SetGlobalBuffer((__gm__ int32_t *)t, 1024);
    for (int r = core_; r < 16; r += cores_) {
      tGm.SetValue(r * 15 + r, 7);
    }
  }

private:
  int n_;
  const uint32_t core_, cores_;
  GlobalTensor<float> qGm;
  GlobalTensor<int32_t> tGm;
};

extern "C" __global__ __aicore__ void eye_fixed(GM_ADDR q, GM_ADDR t, int n) {
  EyeFixed e;
  e.Init(q, n);
  e.Reset(n);
  e.Tag(t);
}
