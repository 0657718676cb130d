// Host tiling: windows times the cores sharing a window, stored in two
// fields, is the launch's width.
static ge::graphStatus TiledTilingFunc(gert::TilingContext *context) {
  int64_t windows = GetWindows(context);
  int64_t share = GetShare(context);
  TiledTilingData tiling;
  tiling.set_windows(windows);
  tiling.set_share(share);
  context->SetBlockDim(windows * share);
  return ge::GRAPH_SUCCESS;
}
