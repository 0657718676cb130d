// A kernel class handing its block index to the record helpers.
#include "partials.h"

class Reduce {
public:
  __aicore__ inline void Init(GM_ADDR recs) {
    recs_ = (__gm__ float *)recs;
    block_ = AscendC::GetBlockIdx();
  }
  __aicore__ inline void Process(float v) {
    PutRecord(recs_, block_, v);
    PutWide(recs_ + 1024, block_, v);
    PutWord(recs_ + 4096, block_, v);
    AscendC::SyncAll();
    if (block_ == 0) {
      float total = 0;
      for (int64_t i = 0; i < 8; ++i) {
        total += GetRecord(recs_, i);
      }
      (void)total;
    }
  }

private:
  __gm__ float *recs_;
  int64_t block_;
};

extern "C" __global__ __aicore__ void reduce_records(GM_ADDR recs) {
  Reduce op;
  op.Init(recs);
  op.Process(1.0f);
}
