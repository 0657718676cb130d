// Host tiling sized to the work: rows in shares of ceil(rows / cores),
// as many blocks as there are shares (one block for no rows). Every
// launched block gets a share; with `usedCoreNum = min(cores, rows)` the
// last block would get none for 5 rows on 4 cores. The analysis follows
// neither: it says less.
static ge::graphStatus SizedTilingFunc(gert::TilingContext *context) {
  uint32_t rows = GetRows(context);
  SizedTilingData tiling;
  if (rows == 0) {
    tiling.set_usedCoreNum(1);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
  }
  uint32_t cores = GetCoreNum(context);
  uint32_t share = (rows + cores - 1) / cores;
  uint32_t usedCoreNum = (rows + share - 1) / share;
  tiling.set_usedCoreNum(usedCoreNum);
  tiling.set_rows(rows);
  context->SetBlockDim(usedCoreNum);
  return ge::GRAPH_SUCCESS;
}
