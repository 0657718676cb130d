// This operator's tiling is the shared one.
#include "../../../common/op_host/arch35/common_tiling.h"

REGISTER_TILING(Shared, CommonTiling);
