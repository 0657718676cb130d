// Host tiling: shares of PER elements, one block a share, rounded up.
static constexpr uint32_t PER = 1024;

ge::graphStatus TailTiling::DoOpTiling() {
  uint64_t total = GetTotal(context_);
  uint32_t blocks = (total + PER - 1) / PER;
  auto *t = reinterpret_cast<TailTilingData *>(context_->GetRawTilingData());
  context_->SetBlockDim(blocks);
  t->per = PER;
  t->total = static_cast<uint32_t>(total);
  return ge::GRAPH_SUCCESS;
}
