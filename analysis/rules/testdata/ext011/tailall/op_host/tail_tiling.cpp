// Host tiling: every vector core, whatever the elements.
static constexpr uint32_t PER = 1024;

ge::graphStatus TailAllTiling::DoOpTiling() {
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context_->GetPlatformInfo());
  auto coreNum = ascendcPlatform.GetCoreNumAiv();
  auto *t = reinterpret_cast<TailTilingData *>(context_->GetRawTilingData());
  context_->SetBlockDim(coreNum);
  t->per = PER;
  t->total = static_cast<uint32_t>(GetTotal(context_));
  return ge::GRAPH_SUCCESS;
}
