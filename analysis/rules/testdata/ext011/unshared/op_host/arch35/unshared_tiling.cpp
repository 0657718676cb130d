// A tiling of its own, not the shared one: nothing here says how many blocks it launches.
#include "unshared_tiling.h"

REGISTER_TILING(Unshared, CommonTiling);
