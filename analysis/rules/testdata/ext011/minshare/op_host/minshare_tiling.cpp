// Host tiling launching as many blocks as cores or rows, whichever is
// fewer: the kernel's rounded-up shares can leave the last blocks none.
static ge::graphStatus MinShareTilingFunc(gert::TilingContext *context) {
  uint32_t rows = GetRows(context);
  uint32_t cores = GetCoreNum(context);
  uint32_t usedCoreNum = std::min(cores, rows);
  if (usedCoreNum == 0) {
    usedCoreNum = 1;
  }
  MinShareTilingData tiling;
  tiling.set_usedCoreNum(usedCoreNum);
  context->SetBlockDim(usedCoreNum);
  tiling.set_rows(rows);
  return ge::GRAPH_SUCCESS;
}
