// Host tiling: every core is launched, whatever the used-core count.
static ge::graphStatus SpreadTilingFunc(gert::TilingContext *context) {
  uint32_t coreNum = GetCoreNum(context);
  uint32_t rows = GetRows(context);
  uint32_t usedCoreNum = rows < coreNum ? rows : coreNum;
  SpreadTilingData tiling;
  tiling.set_usedCoreNum(usedCoreNum);
  tiling.set_rows(rows);
  context->SetBlockDim(coreNum);
  return ge::GRAPH_SUCCESS;
}
