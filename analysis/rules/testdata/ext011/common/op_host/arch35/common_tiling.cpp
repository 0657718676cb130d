// The shared tiling launches as many blocks as the mode's tiling data
// says it uses.
void CommonTiling::WriteBack(Ctx *c) {
  simdData_.usedCoreNum = CeilDiv(total, perCore);
  simtData_.usedCoreNum = CeilDiv(total, threads);
  c->SetBlockDim(mode == SIMD ? simdData_.usedCoreNum : simtData_.usedCoreNum);
}
