// Host tiling: the block count is computed from the stored vector-core
// count at least: the larger of it and another count.
static ge::graphStatus WidenedTilingFunc(gert::TilingContext *context) {
  WidenedTilingData tiling;
  tiling.set_coreNum(GetUsedVectorCores(context));
  uint32_t blockDim = std::max(tiling.get_coreNum(), GetAivNum(context));
  context->SetBlockDim(blockDim);
  return ge::GRAPH_SUCCESS;
}
