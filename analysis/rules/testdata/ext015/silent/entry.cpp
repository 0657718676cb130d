// Near-misses: every set meets its wait on the paths that matter.
template <AscendC::HardEvent EVT>
__aicore__ inline void Sync(int32_t id) {
  AscendC::SetFlag<EVT>(id);
  AscendC::WaitFlag<EVT>(id);
}

extern "C" __global__ __aicore__ void silent_vec(__gm__ int64_t *args) {
  AscendC::LocalTensor<float> ub;
  AscendC::GlobalTensor<float> inGm, outGm;
  int32_t n = static_cast<int32_t>(args[2]);
  bool flush = args[3] != 0;
  // The previous iteration's set pairs with the guarded wait.
  for (int32_t i = 0; i < n; ++i) {
    if (i > 0) {
      AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    AscendC::DataCopy(ub, inGm[i * 256], 256);
    AscendC::DataCopy(outGm[i * 256], ub, 256);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
  if (n > 0) {
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
  // A pair under the same condition twice.
  if (flush) {
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
  }
  AscendC::Muls(ub, ub, 2.0f, 256);
  if (flush) {
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
  }
  // Ids computed at run time: not judged.
  for (int32_t i = 0; i < n; ++i) {
    event_t ev = (i % 2 == 0) ? EVENT_ID2 : EVENT_ID3;
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(ev);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(ev);
  }
  event_t dyn = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_MTE2));
  AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(dyn);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(dyn);
  // A loop left by break only.
  AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID5);
  while (true) {
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID5);
    if (ub.GetValue(0) > 0) {
      break;
    }
    AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID5);
  }
  // Each case pairs its own set.
  switch (n) {
  case 0:
    AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID6);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID6);
    break;
  default:
    break;
  }
  // The pipe pair is a template parameter here.
  Sync<AscendC::HardEvent::S_MTE3>(EVENT_ID7);
#ifdef __DAV_C220_VEC__
  AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
#else
  AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
#endif
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
  if constexpr (false) {
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
}

// The kernel object's constructor sets what Process waits: code no call of
// the entry resolves to touches MTE2_MTE1, so that pair is not judged.
class Kernel {
 public:
  __aicore__ inline Kernel() { AscendC::SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0); }
  __aicore__ inline void Process() {
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);
  }
};

extern "C" __global__ __aicore__ void object_entry(__gm__ int64_t *args) {
  Kernel k;
  k.Process();
}

// A block object from a header the workspace does not have: its call may
// wait what the entry set.
extern "C" __global__ __aicore__ void functor_entry(__gm__ int64_t *args) {
  Catlass::Gemm::Block::BlockMmad<Policy> blockMmad;
  AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID3);
  blockMmad(args);
  AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID3);
  blockMmad(args);
  AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID4);
  blockMmad.LoadQ(args);
  AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID4);
  blockMmad.LoadQ(args);
}

// Constructed with arguments (read as a function declaration): its calls
// are opaque too.
extern "C" __global__ __aicore__ void vexing_entry(__gm__ int64_t *args) {
  BlockMmadQK blockMmadQK(resource, helper);
  AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID5);
  blockMmadQK.loadQGM(args);
  AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID5);
  blockMmadQK(args);
}
