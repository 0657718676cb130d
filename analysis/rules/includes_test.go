package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// TestIncludesFromTheBuild: a poll whose flush helper is in a header found
// only through the build (CMake include_directories or
// target_include_directories, a build script's -I) or as the tree's one
// file ending with the include's path is judged with the helper's body
// (silent: it invalidates the line); one whose include two files could
// answer stays unresolved and says less.
func TestIncludesFromTheBuild(t *testing.T) {
	analysistest.Run(t, "testdata/includes", GMScalarRead)
}
