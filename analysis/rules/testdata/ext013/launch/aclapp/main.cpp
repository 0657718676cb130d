// ACL launches: the generated launch macro on one block, and a handle
// looked up by the kernel's name (its count is the handle launch's).
#include "acl/acl.h"

int Run(aclrtStream stream, aclrtBinHandle bin, uint32_t *x, uint32_t blocks) {
  ACLRT_LAUNCH_KERNEL(BumpHandleKernel)(1, stream, x);
  aclrtFuncHandle f;
  aclrtBinaryGetFunction(bin, "BumpHandleKernel", &f);
  aclrtLaunchKernelWithConfig(f, blocks, stream, nullptr, nullptr, nullptr);
  return 0;
}
