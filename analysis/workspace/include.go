package workspace

// Which file an #include names is the workspace's to say
// (ResolveInclude); this file says which quoted includes name a toolkit
// header, never a file of the project.

import "strings"

// sdkHeaders are the quoted includes that name the toolkit (CANN AscendC,
// pto-isa, the runtime's own headers): never in the workspace, and their
// functions are the known device API rather than project code.
var sdkHeaders = []string{"kernel_operator.h", "kernel_tiling/", "lib/", "pto/", "acl/", "aclnn", "tikcfw/", "graph/", "register/", "tiling/", "securec.h", "kernel_macros.h", "kernel_event.h"}

// IsSDKHeader reports whether a quoted include names a toolkit header.
func IsSDKHeader(path string) bool {
	for _, h := range sdkHeaders {
		if strings.HasSuffix(h, "/") && strings.HasPrefix(path, h) || path == h {
			return true
		}
	}
	return false
}
