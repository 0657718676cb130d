// The older chip's tiling: every core, whatever the rows it stores.
static ge::graphStatus TiledArch22TilingFunc(gert::TilingContext *context) {
  uint32_t coreNum = GetCoreNum(context);
  Arch22TilingData *tiling = GetTiling(context);
  tiling->rows = GetRows(context);
  context->SetBlockDim(coreNum);
  return ge::GRAPH_SUCCESS;
}
