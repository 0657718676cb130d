// Host tiling: the launch is as wide as the used-core count it stores.
static ge::graphStatus LaunchedTilingFunc(gert::TilingContext *context) {
  uint32_t coreNum = GetCoreNum(context);
  uint32_t rows = GetRows(context);
  uint32_t usedCoreNum = rows < coreNum ? rows : coreNum;
  LaunchedTilingData tiling;
  tiling.set_usedCoreNum(usedCoreNum);
  tiling.set_rows(rows);
  context->SetBlockDim(static_cast<uint32_t>(usedCoreNum));
  return ge::GRAPH_SUCCESS;
}
