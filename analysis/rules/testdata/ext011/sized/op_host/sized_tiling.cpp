// Host tiling sized to the work: as many blocks as there are rows, at
// most every core (one block for no rows).
static ge::graphStatus SizedTilingFunc(gert::TilingContext *context) {
  uint32_t rows = GetRows(context);
  SizedTilingData tiling;
  if (rows == 0) {
    tiling.set_usedCoreNum(1);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
  }
  uint32_t usedCoreNum = std::min(GetCoreNum(context), rows);
  tiling.set_usedCoreNum(usedCoreNum);
  tiling.set_rows(rows);
  context->SetBlockDim(usedCoreNum);
  return ge::GRAPH_SUCCESS;
}
