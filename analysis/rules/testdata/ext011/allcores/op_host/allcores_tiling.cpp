// Host tiling launching every vector core, whatever the rows: the blocks
// past the rows get no share.
static ge::graphStatus AllCoresTilingFunc(gert::TilingContext *context) {
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  auto coreNum = ascendcPlatform.GetCoreNumAiv();
  AllCoresTilingData tiling;
  tiling.set_usedCoreNum(coreNum);
  tiling.set_rows(GetRows(context));
  context->SetBlockDim(coreNum);
  return ge::GRAPH_SUCCESS;
}
