package unit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// writeTree writes files (path -> text) under a new folder and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, text := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// A tree with one unit of each launch model; the evidence each model is
// decided from is written in the model's own folder.
var launchTree = map[string]string{
	// An entry a stub names: a pypto extern, whatever its signature.
	"ops/stub_ops.py": `import pypto.language as pl
from pathlib import Path

SRC = Path(__file__).parent / "kernels" / "scale.cpp"

@pl.jit.extern(core_type="aiv", source=SRC)
def scale(x: pl.Tensor[[64], pl.FP32], y: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor:
    ...
`,
	"ops/kernels/scale.cpp": `extern "C" __global__ __aicore__ void scale(__gm__ int64_t *args) {}
`,
	// The runtime's per-task shape, named by no stub.
	"runtime/kernel_entry.cpp": `extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {}
`,
	// A runtime API header no entry includes: its inline helper takes the
	// args pointer alone, but nothing says how a caller is launched.
	"runtime/api.h": `inline __aicore__ int64_t first_arg(__gm__ int64_t *args) { return args[0]; }
`,
	// A library class no file includes, its methods taking flag addresses
	// (one of them alone): no runtime entry.
	"library/sync_flags.h": `class Flags {
public:
    __aicore__ inline int64_t Read(__gm__ int64_t *addr) { return addr[0]; }
    __aicore__ inline void Write(__gm__ int64_t *addr, int64_t v) { addr[0] = v; }
};
`,
	// An SDK header's inline helper taking an address alone is no
	// runtime API: nothing says how its callers are launched.
	"sdk/debug_utils.h": `__aicore__ inline void flush_line(__gm__ uint64_t *ptr) { dcci(ptr, 0); }
`,
	// A __global__ kernel with its own parameters, launched next door.
	"standalone/add.cpp": `extern "C" __global__ __aicore__ void add(__gm__ uint8_t *x, __gm__ uint8_t *y) {}
`,
	"standalone/main.cpp": `void launch(void *s) { add<<<8, nullptr, s>>>(nullptr, nullptr); }
`,
	// A library's kernel macro before the return type, and no launch seen.
	"library/matmul.cpp": `template <class K> LIB_GLOBAL void matmul(typename K::Params p) {}
`,
	// A __global__ kernel of a CPU-simulator build.
	"sim/CMakeLists.txt": "add_definitions(-D__CPU_SIM)\n",
	"sim/case/kernel.cpp": `extern "C" __global__ __aicore__ void sim_case(__gm__ float *x) {}
`,
	// A build file with a device compile and an optional simulator build.
	"both/CMakeLists.txt": "if (SIM)\n  add_compile_definitions(__CPU_SIM)\nendif()\ntarget_compile_options(k PRIVATE \"SHELL:-mllvm -cce-aicore-stack-size=0x8000\")\n",
	"both/kernel.cpp": `extern "C" __global__ __aicore__ void both(__gm__ float *x) {}
`,
	// Kernels a macro defines per data type, the macro expanded as another
	// macro's argument: standalone kernels of the header compiled alone.
	"macro/reduce_op.h": `#define REDUCE_KERNEL_DEF(type) \
    extern "C" __global__ __aicore__ void reduce_##type(REDUCE_ARGS_DEF) \
    { \
        return ReduceImpl<type>(REDUCE_ARGS_CALL); \
    }

EACH_REDUCE_TYPE(REDUCE_KERNEL_DEF);
`,
	// The same macro never expanded defines no kernel.
	"macro/unused_op.h": `#define UNUSED_KERNEL_DEF(type) \
    extern "C" __global__ __aicore__ void unused_##type(int32_t n) {}
inline int32_t helper(int32_t n) { return n; }
`,
	// A runtime kernel configuration names a kernel whose signature alone
	// says nothing: the runtime calls it per task. Its orchestration source
	// is no kernel.
	"configured/test_scale.py": `from simpler_setup import SceneTestCase

class TestScale(SceneTestCase):
    CALLABLE = {
        "orchestration": {"source": "kernels/orch/scale_orch.cpp", "function_name": "entry"},
        "incores": [
            {"func_id": 0, "source": "kernels/aiv/scale_tile.cpp", "core_type": "aiv"},
        ],
    }
`,
	"configured/kernels/aiv/scale_tile.cpp": `extern "C" __aicore__ void scale_tile(__gm__ int64_t *args, int32_t unused) {}
`,
	"configured/kernels/orch/scale_orch.cpp": `extern "C" void entry(__gm__ int64_t *args, int32_t n) {}
`,
	// An Ascend C source: the kernel and its host launch in one .asc file;
	// an AI CPU kernel (`__global__ __aicpu__`) is no device unit.
	"asc/add.asc": `extern "C" __global__ __aicore__ void add(__gm__ uint8_t *x) {}
__host__ int main() { add<<<8, nullptr, nullptr>>>(nullptr); return 0; }
`,
	"asc/prepare.asc": `extern "C" __global__ __aicpu__ uint32_t prepare(void *arg) { return 0; }
`,
	// A gtest case calling a kernel on the CPU (no launch): host code.
	"cputest/test_add.cpp": `#include <gtest/gtest.h>
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void add_case(__gm__ uint8_t *x) {}
TEST(AddTest, Case) { add_case(nullptr); }
`,
	// The twin: a gtest case that launches the kernel on the device.
	"devtest/test_add.cpp": `#include <gtest/gtest.h>
extern "C" __global__ __aicore__ void add_dev(__gm__ uint8_t *x) {}
TEST(AddTest, Device) { add_dev<<<8, nullptr, nullptr>>>(nullptr); }
`,
	// The runtime's one-pointer shape on a `__global__` kernel the host
	// launches by name (through the header the build generates for it).
	"hostlaunch/kernel/read_clock.cpp": `extern "C" __global__ __aicore__ void read_clock(__gm__ uint64_t *clk) {}
`,
	"hostlaunch/include/utils.h": `#include "aclrtlaunch_read_clock.h"
inline void Clock(void *s, uint64_t *clk) { ACLRT_LAUNCH_KERNEL(read_clock)(1, s, clk); }
`,
	// A device library's function taking one int64 pointer under another
	// name than the runtime's `args`: a lock word, no per-task kernel.
	"library/lock.cpp": `__aiv__ __attribute__((always_inline)) int64_t participants(__gm__ int64_t *base) { return base[0]; }
`,
	// A __global__ kernel taking one int64 pointer of its own.
	"standalone/lock_demo.cpp": `extern "C" __global__ __aicore__ void lock_demo(__gm__ int64_t *lock_word) {}
`,
	// An int64 pointer among other parameters says nothing of the launch.
	"unknown/fill.cpp": `extern "C" __aicore__ void fill(__gm__ int64_t *data, int32_t n) {}
`,
}

func TestLaunchModels(t *testing.T) {
	root := writeTree(t, launchTree)
	ws := workspace.New(root)
	for _, c := range []struct {
		entry    string
		want     Launch
		evidence string
	}{
		{"ops/kernels/scale.cpp", LaunchExtern, "stub names scale.cpp"},
		{"runtime/kernel_entry.cpp", LaunchRuntime, "as its only parameter"},
		{"runtime/api.h", LaunchUnknown, "an inline helper's"},
		{"library/sync_flags.h", LaunchUnknown, "an inline helper's"},
		{"standalone/add.cpp", LaunchStandalone, "(launched in main.cpp)"},
		{"library/matmul.cpp", LaunchStandalone, "owns its launch"},
		{"sim/case/kernel.cpp", LaunchHost, "../CMakeLists.txt:1 defines __CPU_SIM"},
		{"unknown/fill.cpp", LaunchUnknown, "among other parameters"},
		{"library/lock.cpp", LaunchUnknown, "under another name than `args`"},
		{"standalone/lock_demo.cpp", LaunchStandalone, "own parameters"},
		{"sdk/debug_utils.h", LaunchUnknown, "a `__gm__ int64_t *`"},
		{"cputest/test_add.cpp", LaunchHost, "test_add.cpp:1 includes gtest"},
		{"devtest/test_add.cpp", LaunchStandalone, "owns its launch"},
		{"both/kernel.cpp", LaunchStandalone, "owns its launch"},
		{"macro/reduce_op.h", LaunchStandalone, "owns its launch"},
		{"configured/kernels/aiv/scale_tile.cpp", LaunchRuntime, "kernel configuration names it as a per-task kernel (test_scale.py:7)"},
		{"configured/kernels/orch/scale_orch.cpp", LaunchUnknown, "among other parameters"},
		{"asc/add.asc", LaunchStandalone, "own parameters"},
		{"hostlaunch/kernel/read_clock.cpp", LaunchStandalone, "launches its kernel `read_clock` (../include/utils.h)"},
	} {
		p := filepath.Join(root, c.entry)
		if !ws.Context(p).Extern {
			t.Errorf("%s: not a unit", c.entry)
		}
		m := LaunchOfEntry(ws, p)
		if m.Launch != c.want || !strings.Contains(m.Evidence, c.evidence) {
			t.Errorf("%s: %s (%s), want %s with %q", c.entry, m.Launch, m.Evidence, c.want, c.evidence)
		}
	}
	// The host file of the launch is no unit, nor a header whose kernel
	// macro nothing expands.
	for _, f := range []string{"standalone/main.cpp", "macro/unused_op.h", "asc/prepare.asc"} {
		if c := ws.Context(filepath.Join(root, f)); c.Extern {
			t.Errorf("%s is a unit: %+v", f, c)
		}
	}
}

// The build model's sources in order: the configuration, the nearest build
// file passing the switch, the launch model's default.
func TestBuildModels(t *testing.T) {
	root := writeTree(t, map[string]string{
		"pto/CMakeLists.txt": `# -mllvm -cce-aicore-dcci-insert-for-scalar=true (a comment says nothing)
target_compile_options(k PRIVATE
    "SHELL:-mllvm -cce-aicore-dcci-insert-for-scalar=false"
    "SHELL:-mllvm -cce-aicore-dcci-before-kernel-end=false")
`,
		"pto/k/kernel.cpp":         "extern \"C\" __global__ __aicore__ void k(__gm__ float *x) {}\n",
		"pto/k/build.sh":           "ccec -mllvm -cce-aicore-dcci-insert-for-scalar=true k.cpp\n",
		"plain/kernel.cpp":         "extern \"C\" __global__ __aicore__ void k(__gm__ float *x) {}\n",
		"runtime/kernel_entry.cpp": "extern \"C\" __aicore__ void kernel_entry(__gm__ int64_t *args) {}\n",
	})
	ws := workspace.New(root)
	build := func(rel string, cfg BuildConfig) Build {
		p := filepath.Join(root, rel)
		return BuildOfEntry(ws, p, LaunchOfEntry(ws, p), cfg)
	}
	// The nearest folder decides: build.sh next to the kernel says =true;
	// the kernel-end switch comes from the parent's CMake list.
	b := build("pto/k/kernel.cpp", BuildConfig{})
	if !b.ScalarCoherence || !strings.Contains(b.Source, "build.sh:1") {
		t.Errorf("pto kernel: %+v", b)
	}
	if b.KernelEndWriteBack || !strings.Contains(b.EndSource, "CMakeLists.txt:4") {
		t.Errorf("pto kernel end: %+v", b)
	}
	// The configuration wins over the build files.
	off := false
	if b := build("pto/k/kernel.cpp", BuildConfig{DcciInsertForScalar: &off}); b.ScalarCoherence || !strings.Contains(b.Source, "configuration") {
		t.Errorf("configured: %+v", b)
	}
	// Defaults: a standalone kernel keeps the compiler's, the runtime's
	// builds pass =false.
	if b := build("plain/kernel.cpp", BuildConfig{}); !b.ScalarCoherence || !b.KernelEndWriteBack || !strings.Contains(b.Source, "default of a standalone device kernel") {
		t.Errorf("standalone default: %+v", b)
	}
	if b := build("runtime/kernel_entry.cpp", BuildConfig{}); b.ScalarCoherence || !strings.Contains(b.Source, "default of a runtime-ABI kernel") {
		t.Errorf("runtime default: %+v", b)
	}
	if d := build("runtime/kernel_entry.cpp", BuildConfig{}).Describe(); !strings.Contains(d, "left to the author") {
		t.Errorf("describe: %s", d)
	}
}

// A kernel ascendc.cmake's ascendc_library compiles leaves scalar
// coherence to the author on both chips, and on A5 its end drops the
// dirty lines: the chip from the configuration, a SOC_VERSION the build
// sets as plain text, or the unit's conditionals (none: either chip).
func TestBuildModelsKernelLibrary(t *testing.T) {
	kernel := "extern \"C\" __global__ __aicore__ void k(__gm__ uint32_t *x) { x[block_idx] += 1; }\nvoid run(void *s, uint32_t *x) { k<<<8, nullptr, s>>>(x); }\n"
	root := writeTree(t, map[string]string{
		"env/CMakeLists.txt": "set(SOC_VERSION $ENV{SOC_VERSION})\nascendc_library(k STATIC k.cpp)\n",
		"env/k.cpp":          kernel,
		"env/README.md":      "| Product | Supported |\n| Ascend 950PR/Ascend 950DT | yes |\n",
		// Nothing names A5: an A2/A3 build's end is assumed.
		"nodoc/CMakeLists.txt": "set(SOC_VERSION $ENV{SOC_VERSION})\nascendc_library(k STATIC k.cpp)\n",
		"nodoc/k.cpp":          kernel,
		"nodoc/README.md":      "Runs on Ascend 910B.\n",
		"a2/CMakeLists.txt":    "set(SOC_VERSION \"Ascend910B1\" CACHE STRING \"chip\")\nascendc_library(k STATIC k.cpp)\n",
		"a2/k.cpp":             kernel,
		"a5/CMakeLists.txt":    "set(SOC_VERSION \"Ascend950PR_9599\")\nascendc_library(k STATIC k.cpp)\n",
		"a5/k.cpp":             kernel,
		"guard/CMakeLists.txt": "ascendc_library(k STATIC k.cpp)\n",
		"guard/k.cpp":          "#ifdef __DAV_C220_VEC__\nconstexpr int kLanes = 1;\n#endif\n" + kernel,
		// Named from another folder's build, by path.
		"app/README.md":      "Supported: Ascend950PR.\n",
		"app/CMakeLists.txt": "# ascendc_library(old STATIC ../shared/old.cpp)\nascendc_library(kernels STATIC\n    ${CMAKE_CURRENT_SOURCE_DIR}/../shared/k.cpp)\n",
		"shared/k.cpp":       kernel,
		"shared/old.cpp":     kernel,
		// A switch the build passes decides over the library's default.
		"own/CMakeLists.txt": "ascendc_library(k STATIC k.cpp)\nascendc_compile_options(k PRIVATE -mllvm -cce-aicore-dcci-before-kernel-end=true)\n",
		"own/k.cpp":          kernel,
		// --cce-no-dcache-flush: a DCI at the end, whatever the chip.
		"dci/CMakeLists.txt": "add_kernel(k OPTIONS \"--cce-no-dcache-flush\")\n",
		"dci/k.cpp":          kernel,
		"plain/k.cpp":        kernel,
	})
	ws := workspace.New(root)
	build := func(rel string, cfg BuildConfig) Build {
		p := filepath.Join(root, rel)
		return BuildOfEntry(ws, p, LaunchOfEntry(ws, p), cfg)
	}
	for _, c := range []struct {
		rel       string
		cfg       BuildConfig
		coherent  bool
		end, drop bool
		source    string // in EndSource
	}{
		{"env/k.cpp", BuildConfig{}, false, false, true, "CMakeLists.txt:2: `ascendc_library` builds for A5, dav-c310, end the kernel they wrap with `dsb(DSB_ALL); dci();` (A5: README.md:2 lists an Ascend 950 product)"},
		{"nodoc/k.cpp", BuildConfig{}, false, true, false, "default of a standalone"},
		{"nodoc/k.cpp", BuildConfig{Arch: grammar.ArchA5}, false, false, true, "(A5: the configured `arch`)"},
		{"a2/k.cpp", BuildConfig{}, false, true, false, "default of a standalone"},
		{"a5/k.cpp", BuildConfig{}, false, false, true, "(A5: SOC_VERSION Ascend950PR_9599, CMakeLists.txt:1)"},
		{"guard/k.cpp", BuildConfig{}, false, true, false, "default of a standalone"},
		{"env/k.cpp", BuildConfig{Arch: grammar.ArchA2A3}, false, true, false, "default of a standalone"},
		{"shared/k.cpp", BuildConfig{}, false, false, true, "../app/CMakeLists.txt:2: `ascendc_library` builds for A5, dav-c310, end the kernel they wrap with `dsb(DSB_ALL); dci();` (A5: ../app/README.md:1 lists an Ascend 950 product)"},
		{"shared/old.cpp", BuildConfig{}, true, true, false, "default of a standalone"},
		{"own/k.cpp", BuildConfig{}, false, true, false, "CMakeLists.txt:2 (`-cce-aicore-dcci-before-kernel-end=true`)"},
		{"dci/k.cpp", BuildConfig{}, true, false, false, "CMakeLists.txt:1 (`--cce-no-dcache-flush`)"},
		{"plain/k.cpp", BuildConfig{}, true, true, false, "default of a standalone"},
	} {
		b := build(c.rel, c.cfg)
		if b.ScalarCoherence != c.coherent || b.KernelEndWriteBack != c.end || b.EndDrops != c.drop || !strings.Contains(b.EndSource, c.source) {
			t.Errorf("%s (arch %v): %+v", c.rel, c.cfg.Arch, b)
		}
		if !c.coherent && c.rel != "own/k.cpp" && !strings.Contains(b.Source, "`ascendc_library` compiles for dav-c220 and dav-c310 pass `-cce-aicore-dcci-insert-for-scalar=false`") {
			t.Errorf("%s: coherence source %q", c.rel, b.Source)
		}
	}
	if d := build("env/k.cpp", BuildConfig{}).Describe(); !strings.Contains(d, "no write-back of the data cache at the kernel's end (CMakeLists.txt:2") {
		t.Errorf("describe: %s", d)
	}
}

// The chip a build pins: the nearest folder's SOC_VERSION values, when
// they name one chip the model knows; conditionals naming a chip first.
func TestBuildTarget(t *testing.T) {
	k := "extern \"C\" __global__ __aicore__ void k(__gm__ float *x) {}\n"
	root := writeTree(t, map[string]string{
		"CMakeLists.txt":            "set(SOC_VERSION \"Ascend910B1\" CACHE STRING \"soc\")\n",
		"a2/kernel.cpp":             k,
		"a5/CMakeLists.txt":         "set(SOC_VERSION \"Ascend950PR_9599\" CACHE STRING \"soc\")\n",
		"a5/op/kernel.cpp":          k,
		"a3/run.sh":                 "SOC_VERSION=Ascend910_9391 bash build.sh\n",
		"a3/kernel.cpp":             k,
		"both/CMakeLists.txt":       "set(SOC_VERSION \"Ascend910B1\")\nset(SOC_VERSION \"Ascend950PR_9599\")\n",
		"both/kernel.cpp":           k,
		"p310/CMakeLists.txt":       "set(SOC_VERSION \"Ascend310P3\" CACHE STRING \"soc\")\n",
		"p310/kernel.cpp":           k,
		"guarded/CMakeLists.txt":    "set(SOC_VERSION \"Ascend950PR_9599\")\n",
		"guarded/kernel.cpp":        "#ifdef __DAV_C220_VEC__\nint lane;\n#endif\n" + k,
		"guardedany/kernel.cpp":     "#if __NPU_ARCH__ == 3510\nint a5;\n#else\nint other;\n#endif\n" + k,
		"guardedany/CMakeLists.txt": "set(SOC_VERSION \"Ascend950PR_9599\")\n",
		// An op project's presets: the template's compute units.
		"opproj/CMakePresets.json":     "{\n  \"version\": 1,\n  \"configurePresets\": [{\n    \"name\": \"default\",\n    \"cacheVariables\": {\n      \"ENABLE_TEST\": {\"type\": \"BOOL\", \"value\": \"False\"},\n      \"ASCEND_COMPUTE_UNIT\": {\n        \"type\": \"STRING\",\n        \"value\": \"ascend910b;ascend910_93\"\n      }\n    }\n  }]\n}\n",
		"opproj/op_kernel/kernel.cpp":  k,
		"opmixed/CMakePresets.json":    `{"configurePresets": [{"cacheVariables": {"ASCEND_COMPUTE_UNIT": "ascend910b;ascend310p"}}]}`,
		"opmixed/op_kernel/kernel.cpp": k,
		"opa5/CMakePresets.json":       `{"configurePresets": [{"cacheVariables": {"SOC_VERSION": "Ascend950PR_9599"}}]}`,
		"opa5/op_kernel/kernel.cpp":    k,
		"opbad/CMakePresets.json":      `{"configurePresets": [`,
		"opbad/op_kernel/kernel.cpp":   k,
	})
	ws := workspace.New(root)
	for _, c := range []struct {
		entry  string
		want   grammar.Arch
		source string
	}{
		{"a2/kernel.cpp", grammar.ArchA2A3, "SOC_VERSION Ascend910B1 (../CMakeLists.txt:1)"},
		{"a5/op/kernel.cpp", grammar.ArchA5, "SOC_VERSION Ascend950PR_9599 (../CMakeLists.txt:1)"},
		{"a3/kernel.cpp", grammar.ArchA2A3, "SOC_VERSION Ascend910_9391 (run.sh:1)"},
		{"both/kernel.cpp", grammar.ArchAny, ""},
		{"p310/kernel.cpp", grammar.ArchAny, ""},
		// The conditionals decide first: a core split on dav-c220's macros.
		{"guarded/kernel.cpp", grammar.ArchA2A3, ""},
		// A file that builds for either chip: the pin is one of several.
		{"guardedany/kernel.cpp", grammar.ArchAny, ""},
		{"opproj/op_kernel/kernel.cpp", grammar.ArchA2A3, "ASCEND_COMPUTE_UNIT ascend910b (../CMakePresets.json:7)"},
		// A chip the model does not know among them: unknown.
		{"opmixed/op_kernel/kernel.cpp", grammar.ArchAny, ""},
		{"opa5/op_kernel/kernel.cpp", grammar.ArchA5, "SOC_VERSION Ascend950PR_9599 (../CMakePresets.json:1)"},
		// Not JSON: no pin, and the parent folder's applies.
		{"opbad/op_kernel/kernel.cpp", grammar.ArchA2A3, "SOC_VERSION Ascend910B1 (../../CMakeLists.txt:1)"},
	} {
		p := filepath.Join(root, c.entry)
		got := (*Store)(nil).ForEntry(context.Background(), ws, p).Target()
		if got.Arch != c.want || got.Build != c.source {
			t.Errorf("%s: %s from %q (%s), want %s from %q", c.entry, got.Arch, got.Source, got.Build, c.want, c.source)
		}
		if inf := InferTarget(ws, p); inf.Arch != got.Arch {
			t.Errorf("%s: InferTarget %s, the unit's %s", c.entry, inf.Arch, got.Arch)
		}
	}
}
