// Standalone kernels (default build): Init seeds a matrix by scalar
// stores, Process later copies it in by this core's own DMA. The
// compiler's scalar dcci insertion does not write the dirty lines out
// before an MTE2 read, so the DMA reads the old bytes.
#include "kernel_operator.h"

using namespace AscendC;

class Seeded {
public:
  __aicore__ inline void Init(GM_ADDR q, int n) {
    n_ = n;
    qGm.SetGlobalBuffer((__gm__ float *)q, n * n);
    pipe.InitBuffer(inQ, 1, n * 32);
    Seed();
  }
  __aicore__ inline void Process() {
    for (int r = 0; r < n_; r++) {
      LocalTensor<float> t = inQ.AllocTensor<float>();
      DataCopy(t, qGm[r * n_], n_);
      inQ.EnQue(t);
      t = inQ.DeQue<float>();
      DataCopy(qGm[r * n_], t, n_);
      inQ.FreeTensor(t);
    }
  }

private:
  __aicore__ inline void Seed() {
    for (int r = 0; r < n_; r++) {
      qGm(r * n_ + r) = 2.0f; // want "warning: EXT009 .*`qGm\\(r \\* n_ \\+ r\\) = 2.0f`.*`DataCopy\\(t, qGm\\[r \\* n_\\], n_\\)` \\(line 20\\) in `Process` reads it back by this core's own DMA with no write-back between"
    }
  }
  int n_;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> inQ;
  GlobalTensor<float> qGm;
};

extern "C" __global__ __aicore__ void seeded(GM_ADDR q, int n) {
  Seeded k;
  k.Init(q, n);
  k.Process();
}

// Fixed: Process writes the whole cache out before its first copy-in.
class SeededFixed {
public:
  __aicore__ inline void Init(GM_ADDR q, int n) {
    n_ = n;
    qGm.SetGlobalBuffer((__gm__ float *)q, n * n);
    pipe.InitBuffer(inQ, 1, n * 32);
    Seed();
  }
  __aicore__ inline void Process() {
    DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(qGm);
    for (int r = 0; r < n_; r++) {
      LocalTensor<float> t = inQ.AllocTensor<float>();
      DataCopy(t, qGm[r * n_], n_);
      inQ.EnQue(t);
      t = inQ.DeQue<float>();
      DataCopy(qGm[r * n_], t, n_);
      inQ.FreeTensor(t);
    }
  }

private:
  __aicore__ inline void Seed() {
    for (int r = 0; r < n_; r++) {
      qGm(r * n_ + r) = 2.0f;
    }
  }
  int n_;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> inQ;
  GlobalTensor<float> qGm;
};

extern "C" __global__ __aicore__ void seeded_fixed(GM_ADDR q, int n) {
  SeededFixed f;
  f.Init(q, n);
  f.Process();
}

// Silent: what the kernel stores is read back only by its scalar loads
// and copied out, never copied in.
class Tally {
public:
  __aicore__ inline void Init(GM_ADDR c, GM_ADDR o) {
    cGm.SetGlobalBuffer((__gm__ int32_t *)c, 16);
    oGm.SetGlobalBuffer((__gm__ int32_t *)o, 64);
    pipe.InitBuffer(inQ, 1, 256);
    cGm.SetValue(0, 0);
  }
  __aicore__ inline void Process() {
    LocalTensor<int32_t> t = inQ.AllocTensor<int32_t>();
    DataCopy(t, oGm, 64);
    inQ.EnQue(t);
    t = inQ.DeQue<int32_t>();
    inQ.FreeTensor(t);
  }

private:
  TPipe pipe;
  TQue<TPosition::VECIN, 1> inQ;
  GlobalTensor<int32_t> cGm, oGm;
};

extern "C" __global__ __aicore__ void tally(GM_ADDR c, GM_ADDR o) {
  Tally t;
  t.Init(c, o);
  t.Process();
}

// Silent: the two paths are a dispatch; the path that stores returns
// before the one that copies in.
class Dispatch {
public:
  __aicore__ inline void Init(GM_ADDR q, int n, int mode) {
    n_ = n;
    mode_ = mode;
    pGm.SetGlobalBuffer((__gm__ float *)q, n * n);
    pipe.InitBuffer(inQ, 1, n * 32);
  }
  __aicore__ inline void Process() {
    if (mode_ != 0) {
      for (int r = 0; r < n_; r++) {
        Scalar(r);
      }
      return;
    }
    for (int r = 0; r < n_; r++) {
      LocalTensor<float> t = inQ.AllocTensor<float>();
      DataCopy(t, pGm[r * n_], n_);
      inQ.EnQue(t);
      t = inQ.DeQue<float>();
      inQ.FreeTensor(t);
    }
  }

private:
  __aicore__ inline void Scalar(int r) { pGm(r * n_) = 0.5f; }
  int n_, mode_;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> inQ;
  GlobalTensor<float> pGm;
};

extern "C" __global__ __aicore__ void dispatch(GM_ADDR q, int n, int mode) {
  Dispatch d;
  d.Init(q, n, mode);
  d.Process();
}

// Silent: two kernel classes with a member of one name, one dispatched
// or the other; the scalar one's stores are not the other's copy-in.
class ByScalar {
public:
  __aicore__ inline void Init(GM_ADDR v, int n) {
    n_ = n;
    vGm.SetGlobalBuffer((__gm__ float *)v, n);
  }
  __aicore__ inline void Process() {
    for (int i = 0; i < n_; i++) {
      vGm.SetValue(i, vGm.GetValue(i) + 1.0f);
    }
  }

private:
  int n_;
  GlobalTensor<float> vGm;
};

class ByVector {
public:
  __aicore__ inline void Init(GM_ADDR v, int n) {
    n_ = n;
    vGm.SetGlobalBuffer((__gm__ float *)v, n);
    pipe.InitBuffer(inQ, 1, n * 4);
  }
  __aicore__ inline void Process() {
    LocalTensor<float> t = inQ.AllocTensor<float>();
    DataCopy(t, vGm, n_);
    inQ.EnQue(t);
    t = inQ.DeQue<float>();
    inQ.FreeTensor(t);
  }

private:
  int n_;
  TPipe pipe;
  TQue<TPosition::VECIN, 1> inQ;
  GlobalTensor<float> vGm;
};

extern "C" __global__ __aicore__ void bump(GM_ADDR v, int n, int aligned) {
  if (aligned == 0) {
    ByScalar op;
    op.Init(v, n);
    op.Process();
  } else {
    ByVector op;
    op.Init(v, n);
    op.Process();
  }
}
