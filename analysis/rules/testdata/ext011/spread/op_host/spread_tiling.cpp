// Host tiling: every core is launched, whatever the used-core count and
// the shares of rows.
static ge::graphStatus SpreadTilingFunc(gert::TilingContext *context) {
  uint32_t coreNum = GetCoreNum(context);
  uint32_t rows = GetRows(context);
  uint32_t perCore = (rows + coreNum - 1) / coreNum;
  uint32_t usedCoreNum = (rows + perCore - 1) / perCore;
  if (usedCoreNum > coreNum) usedCoreNum = coreNum;
  SpreadTilingData tiling;
  tiling.set_usedCoreNum(usedCoreNum);
  tiling.set_rows(rows);
  tiling.set_perCore(perCore);
  context->SetBlockDim(coreNum);
  return ge::GRAPH_SUCCESS;
}
