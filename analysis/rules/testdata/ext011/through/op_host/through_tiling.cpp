// Host tiling: the block count is computed from the stored vector-core
// count by a platform call whose arithmetic the analysis does not know.
static ge::graphStatus ThroughTilingFunc(gert::TilingContext *context) {
  ThroughTilingData tiling;
  tiling.set_coreNum(GetUsedVectorCores(context));
  uint32_t blockDim = platform.CalcTschBlockDim(tiling.get_coreNum(), GetAicNum(context), GetAivNum(context));
  context->SetBlockDim(blockDim);
  return ge::GRAPH_SUCCESS;
}
