// ACL launches of single.cpp's and several.cpp's kernels: the launch
// macro, and the generated launch function.
#include "acl/acl.h"
#include "aclrtlaunch_several_kernel.h"

#define SINGLE_BLOCKS 1

int Run(aclrtStream stream, uint8_t *x, uint8_t *tiling) {
  ACLRT_LAUNCH_KERNEL(single_kernel)(SINGLE_BLOCKS, stream, x, tiling);
  ACLRT_LAUNCH_KERNEL(several_kernel)(1, stream, x, tiling);
  aclrtlaunch_several_kernel(4, stream, x, tiling);
  return 0;
}
