// Host tiling: the launch is as wide as the used-core count it stores,
// which is the rows rounded up to whole shares of perCore (at most every
// core).
static ge::graphStatus LaunchedTilingFunc(gert::TilingContext *context) {
  uint32_t coreNum = GetCoreNum(context);
  uint32_t rows = GetRows(context);
  uint32_t perCore = (rows + coreNum - 1) / coreNum;
  uint32_t usedCoreNum = (rows + perCore - 1) / perCore;
  if (usedCoreNum > coreNum) usedCoreNum = coreNum;
  LaunchedTilingData tiling;
  tiling.set_usedCoreNum(usedCoreNum);
  tiling.set_rows(rows);
  tiling.set_perCore(perCore);
  context->SetBlockDim(static_cast<uint32_t>(usedCoreNum));
  return ge::GRAPH_SUCCESS;
}
