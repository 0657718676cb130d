package lsp

import (
	"fmt"
	"strings"
)

// genKernel writes a mixed extern of about 25*phases lines: per phase a
// cube function, a vector function with UB staging, guarded barriers and
// cross-core flags, and non-ASCII comments; the entry calls every phase.
// It exercises the guard model, the constant resolver and several rules.
func genKernel(phases int) string {
	var b strings.Builder
	b.WriteString("// 生成的混合算子 (generated mixed extern for the language server tests)\n")
	b.WriteString("#include \"kernel_operator.h\"\n\n")
	b.WriteString("constexpr int32_t kTileRows = 64;\nconstexpr uint16_t kReadyFlag = 3;\n")
	b.WriteString("enum TensorArg { kOut = 0, kQuery = 1, kKey = 2, kSeqLens = 3 };\n\n")
	for i := 0; i < phases; i++ {
		fmt.Fprintf(&b, "// 第 %d 阶段: cube 计算 🚀\n", i)
		fmt.Fprintf(&b, "__aicore__ inline void cube_phase_%d(__gm__ int64_t *args, int32_t row) {\n", i)
		b.WriteString("  AscendC::LocalTensor<half> l0a;\n")
		b.WriteString("  AscendC::Mmad(l0c, l0a, l0b, params);\n")
		fmt.Fprintf(&b, "  if (row > %d) {\n    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kReadyFlag);\n  }\n", i%7)
		b.WriteString("}\n\n")
		fmt.Fprintf(&b, "__aicore__ inline void vec_phase_%d(__gm__ int64_t *args, __gm__ int32_t *seq) {\n", i)
		b.WriteString("#ifdef __DAV_C220_VEC__\n")
		b.WriteString("  AscendC::CrossCoreWaitFlag(kReadyFlag);\n")
		b.WriteString("  AscendC::DataCopy(seqUb, gSeq, kTileRows);\n")
		b.WriteString("  AscendC::PipeBarrier<PIPE_V>();\n")
		b.WriteString("#endif\n")
		if i%5 == 0 {
			b.WriteString("  AscendC::SyncAll();\n")
		}
		if i%9 == 4 {
			b.WriteString("  uint32_t blk = get_block_idx();\n")
		}
		b.WriteString("  if ASCEND_IS_AIV {\n    AscendC::SyncAll();\n  }\n")
		b.WriteString("}\n\n")
	}
	b.WriteString("extern \"C\" __global__ __aicore__ void gen_entry(__gm__ int64_t *args) {\n")
	b.WriteString("  int32_t row = static_cast<int32_t>(args[4]);\n")
	for i := 0; i < phases; i++ {
		fmt.Fprintf(&b, "  cube_phase_%d(args, row);\n  vec_phase_%d(args, nullptr);\n", i, i)
	}
	b.WriteString("  AscendC::SyncAll<false>();\n}\n")
	return b.String()
}
