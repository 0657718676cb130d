// Another tiling of the operator: it launches its own row count; a local
// named like another tiling's field is not that field.
static ge::graphStatus RowsTilingFunc(gert::TilingContext *context) {
  int64_t windows = GetWindows(context);
  int64_t rows = windows * 2;
  RowsTilingData *tiling = GetTiling(context);
  tiling->rows = rows;
  context->SetBlockDim(rows);
  return ge::GRAPH_SUCCESS;
}
