package benchgen

import (
	"bytes"
	"fmt"
)

// ManyKernels generates one C++ file of about size bytes holding many
// distinct extern kernels, the shape of a machine-made operator library
// flattened into one translation unit. Each kernel defines the same
// constant names with values of its own (`kTile`, `kFlag`), instantiates a
// shared template with its own arguments, and calls shared helpers with
// its own constants, so a name's possible values, a helper parameter's
// values over its calls and a template's instantiations all grow with the
// number of kernels. Analysis time and memory must grow linearly with
// size (BenchmarkManyKernels).
func ManyKernels(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`#include "kernel_operator.h"

template <int32_t Tile, bool Rope>
__aicore__ inline void tile_body(__gm__ float *out, __gm__ float *in, int64_t n) {
    for (int64_t i = 0; i < n; i += Tile) {
        out[i] = in[i] * Tile;
    }
    if constexpr (Rope) {
        out[0] = in[1];
    }
    AscendC::PipeBarrier<PIPE_ALL>();
}

__aicore__ inline void shared_step(__gm__ float *out, int32_t tile, int32_t mode, __gm__ uint8_t *sync) {
    if (sync != nullptr) {
        dcci(sync, SINGLE_CACHE_LINE);
    }
    if (mode == 3) {
        out[tile] = 0;
        dcci(&out[tile], SINGLE_CACHE_LINE, CACHELINE_OUT);
        dsb(DSB_DDR);
    } else if (mode > 7) {
        AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(mode & 7);
    }
}

`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "namespace op%d {\nconstexpr int32_t kTile = %d;\nconstexpr int32_t kFlag = (kTile %% 11) + 1;\nconstexpr int32_t kMode = kTile %% 13;\n}  // namespace op%d\n\n", i, 16+i, i)
		fmt.Fprintf(&b, "extern \"C\" __global__ __aicore__ void kernel_%d(__gm__ int64_t *args) {\n", i)
		b.WriteString("    __gm__ float *out = reinterpret_cast<__gm__ float *>(args[0]);\n")
		b.WriteString("    __gm__ float *in = reinterpret_cast<__gm__ float *>(args[1]);\n")
		b.WriteString("    int64_t n = args[2];\n")
		fmt.Fprintf(&b, "    constexpr int32_t kTile = op%d::kTile;\n", i)
		fmt.Fprintf(&b, "    tile_body<kTile, %v>(out, in, n);\n", i%2 == 0)
		fmt.Fprintf(&b, "    shared_step(out, kTile, op%d::kMode, nullptr);\n", i)
		fmt.Fprintf(&b, "    AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(op%d::kFlag);\n", i)
		fmt.Fprintf(&b, "    AscendC::CrossCoreWaitFlag(op%d::kFlag);\n", i)
		b.WriteString("    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);\n")
		b.WriteString("    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);\n")
		fmt.Fprintf(&b, "    if (get_block_idx() == %d) {\n        return;\n    }\n", i%48)
		b.WriteString("    AscendC::SyncAll();\n}\n\n")
	}
	return b.Bytes()
}
