// Helpers the kernels include by a path only the build's -I finds.
#pragma once
__aicore__ inline void Load(GM_ADDR x) {}
