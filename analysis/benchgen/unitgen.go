package benchgen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// GenUnit is one generated extern unit tree (see WriteUnits).
type GenUnit struct {
	Root string
	// Stub is the Python file declaring the three externs.
	Stub string
	// Entry and RopeEntry are the two attention entries; Tiling the third
	// extern's entry.
	Entry, RopeEntry, Tiling string
	// Body is the templated body header both attention entries include.
	Body string
	// Generated is the ~900-line generated tiling header.
	Generated string
	// Vendor are the vendored template-heavy headers.
	Vendor []string
}

// BodyEditMarker is a line of the body header that benchmarks edit around:
// inserting `BodyEditLine` right after it adds one finding (EXT008, a
// topology getter without args), removing it takes the finding away again.
const (
	BodyEditMarker = "  // edit-anchor: per-row bookkeeping\n"
	BodyEditLine   = "  uint32_t probe_row = get_block_idx() + row;\n"
	BodyEditCode   = "EXT008"
)

// WriteUnits writes `copies` independent copies of a realistic extern unit
// under dir and returns them. One copy has the shape of a real attention
// extern: two ~50-line entries including one ~300-line templated body
// header (instantiated with WithRope=false and true, ~26 args slot reads,
// most through a `tensor_data<T>(args, k)` helper), a ~900-line generated
// header, 45 vendored template-heavy headers of ~13,500 lines (~200
// templates, ~440 function bodies, macros), and a Python stub of three
// externs with 8, 19 and 6 parameters; about 15,000 lines, 650 KB.
func WriteUnits(dir string, copies int) ([]GenUnit, error) {
	var out []GenUnit
	for c := 0; c < copies; c++ {
		u, err := writeUnit(filepath.Join(dir, fmt.Sprintf("model%02d", c)), c)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

const vendorHeaders = 45

func writeUnit(root string, seed int) (GenUnit, error) {
	k := filepath.Join(root, "kernels", "attn")
	u := GenUnit{
		Root:      root,
		Stub:      filepath.Join(root, "attention_ops.py"),
		Entry:     filepath.Join(k, "attention", "entry.cpp"),
		RopeEntry: filepath.Join(k, "attention_rope", "entry.cpp"),
		Tiling:    filepath.Join(k, "tiling", "entry.cpp"),
		Body:      filepath.Join(k, "kernel", "attn_body.hpp"),
		Generated: filepath.Join(k, "generated", "kernel_tiling.h"),
	}
	files := map[string]string{
		u.Stub:      genStub(),
		u.Entry:     genEntry("attention_kernel", false),
		u.RopeEntry: genEntry("attention_rope_kernel", true),
		u.Tiling:    genTilingEntry(),
		u.Body:      genBody(),
		u.Generated: genTilingHeader(seed),
		filepath.Join(k, "kernel", "tensor_compat.hpp"): genCompat(),
	}
	for i := 0; i < vendorHeaders; i++ {
		p := filepath.Join(k, "vendor", "fa", vendorPath(i))
		u.Vendor = append(u.Vendor, p)
		files[p] = genVendor(i, seed)
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return u, err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return u, err
		}
	}
	return u, nil
}

// vendorPath spreads the vendored headers over a few folders; header 0 is
// the umbrella the body includes.
func vendorPath(i int) string {
	if i == 0 {
		return "flash_attention_regular.h"
	}
	dirs := []string{"infra/gemm/block", "infra/gemm/tile", "infra/epilogue/block", "infra/layout", "infra/arch"}
	return fmt.Sprintf("%s/part_%02d.hpp", dirs[i%len(dirs)], i)
}

// vendorClasses gives the headers uneven sizes (a few of ~1,000 lines,
// most ~150): 87 class templates of five function bodies each, about
// 13,500 lines in all.
func vendorClasses(i int) int {
	switch {
	case i == 0:
		return 4
	case i%11 == 3:
		return 9
	case i%7 == 2:
		return 2
	}
	return 1
}

func genStub() string {
	var b strings.Builder
	b.WriteString("\"\"\"Attention externs (generated benchmark unit).\"\"\"\n\n")
	b.WriteString("from pathlib import Path\n\nimport pypto.language as pl\n\n")
	b.WriteString("_HERE = Path(__file__).resolve().parent\n")
	b.WriteString("_ATTENTION_ENTRY = _HERE / \"kernels\" / \"attn\" / \"attention\" / \"entry.cpp\"\n")
	b.WriteString("_ATTENTION_ROPE_ENTRY = _HERE / \"kernels\" / \"attn\" / \"attention_rope\" / \"entry.cpp\"\n")
	b.WriteString("_TILING_ENTRY = _HERE / \"kernels\" / \"attn\" / \"tiling\" / \"entry.cpp\"\n\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "# Layout note %d: the metadata block keeps slot %d aligned to 32 bytes so that\n# the tiling kernel and the attention kernel agree on every offset.\n", i, i)
		fmt.Fprintf(&b, "CONST_%d = %d\n\n", i, i*32)
	}
	param := func(name, typ string) string { return fmt.Sprintf("    %s: %s,\n", name, typ) }
	b.WriteString("\n@pl.jit.extern(\n    core_type=\"mixed\",\n    aic_source=_ATTENTION_ENTRY,\n    aiv_source=_ATTENTION_ENTRY,\n    dual_aiv_dispatch=True,\n)\ndef attention_cce(\n")
	for _, p := range []string{"query", "key_cache", "value_cache", "block_table"} {
		b.WriteString(param(p, "pl.Tensor"))
	}
	b.WriteString(param("out", "pl.Out[pl.Tensor]") + param("workspace", "pl.InOut[pl.Tensor]") + param("metadata", "pl.InOut[pl.Tensor]"))
	b.WriteString(param("cache_row_offset", "pl.Scalar[pl.INDEX]") + ") -> pl.Tensor: ...\n\n\n")

	b.WriteString("@pl.jit.extern(\n    core_type=\"mixed\",\n    aic_source=_ATTENTION_ROPE_ENTRY,\n    aiv_source=_ATTENTION_ROPE_ENTRY,\n    dual_aiv_dispatch=True,\n)\ndef attention_rope_cce(\n")
	b.WriteString(param("out", "pl.Out[pl.Tensor]"))
	for _, p := range []string{"query", "key_cache", "value_cache"} {
		b.WriteString(param(p, "pl.InOut[pl.Tensor]"))
	}
	b.WriteString(param("block_table", "pl.Tensor") + param("workspace", "pl.InOut[pl.Tensor]") + param("metadata", "pl.InOut[pl.Tensor]"))
	for _, p := range []string{"q_proj", "k_proj", "v_proj", "q_norm_w", "k_norm_w", "rope_cos", "rope_sin", "inv_rms", "slot_mapping", "seq_lens"} {
		b.WriteString(param(p, "pl.Tensor"))
	}
	b.WriteString(param("cache_row_offset", "pl.Scalar[pl.INDEX]") + param("batch_offset", "pl.Scalar[pl.INDEX]") + ") -> pl.Tensor: ...\n\n\n")

	b.WriteString("@pl.jit.extern(core_type=\"aiv\", source=_TILING_ENTRY)\ndef attention_tiling_cce(\n")
	b.WriteString(param("seq_lens", "pl.Tensor") + param("metadata", "pl.Out[pl.Tensor]"))
	for _, p := range []string{"max_blocks", "num_blocks", "batch_offset", "batch_count"} {
		b.WriteString(param(p, "pl.Scalar[pl.INT32]"))
	}
	b.WriteString(") -> pl.Tensor: ...\n\n\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, "@pl.jit.inline(auto_scope=False)\ndef decode_step_%d(q: pl.Tensor, k: pl.Tensor, v: pl.Tensor, table: pl.Tensor, seq: pl.Tensor, meta: pl.Tensor, ws: pl.Tensor, out: pl.Tensor):\n", i)
		b.WriteString("    with pl.spmd(24, sync_start=True):\n")
		b.WriteString("        meta = attention_tiling_cce(seq, meta, 64, 1024, 0, 16)\n")
		b.WriteString("        out = attention_cce(q, k, v, table, out, ws, meta, 0)\n")
		b.WriteString("    # The tiling result feeds the attention kernel through the metadata\n    # tensor; the barrier region follows the length arrays.\n")
		b.WriteString("    return out\n\n\n")
	}
	return b.String()
}

func genEntry(name string, rope bool) string {
	var b strings.Builder
	b.WriteString("// Generated benchmark entry: a thin wrapper over the templated body.\n")
	b.WriteString("#include <cstdint>\n\n#include \"tensor.h\"\n\n")
	b.WriteString("#ifdef __CPU_SIM\n#ifndef __gm__\n#define __gm__\n#endif\n")
	fmt.Fprintf(&b, "extern \"C\" __aicore__ void %s(__gm__ int64_t *args) { (void)args; }\n#else\n\n", name)
	b.WriteString("#include \"../kernel/attn_body.hpp\"\n\n")
	fmt.Fprintf(&b, "extern \"C\" __aicore__ void %s(__gm__ int64_t *args) {\n", name)
	b.WriteString("    GM_ADDR metadata = tensor_data<uint8_t>(args, 6);\n")
	b.WriteString("    acquire_metadata(metadata);\n")
	b.WriteString("    __gm__ const AttnTilingData *tiling = reinterpret_cast<__gm__ const AttnTilingData *>(metadata);\n")
	b.WriteString("    // The barrier region starts after the length arrays, aligned up.\n")
	b.WriteString("    if (tiling->needCoreNum != 0) {\n")
	b.WriteString("        uint64_t raw = reinterpret_cast<uint64_t>(metadata + attn_meta::kBarrierOffset);\n")
	b.WriteString("        uint64_t aligned = (raw + attn_meta::kBarrierAlign - 1) & ~(static_cast<uint64_t>(attn_meta::kBarrierAlign) - 1);\n")
	fmt.Fprintf(&b, "        run_attention<%v>(args, reinterpret_cast<__gm__ int32_t *>(aligned));\n", rope)
	b.WriteString("    } else {\n")
	fmt.Fprintf(&b, "        run_attention<%v>(args, nullptr);\n", rope)
	b.WriteString("    }\n}\n\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, "// Dispatch note %d: the entry keeps no state between calls; every value it\n// needs is in the args table or the metadata tensor.\n", i)
	}
	b.WriteString("\n#endif\n")
	return b.String()
}

func genTilingEntry() string {
	var b strings.Builder
	b.WriteString("// Generated benchmark tiling entry.\n#include <cstdint>\n\n#include \"tensor.h\"\n#include \"../generated/kernel_tiling.h\"\n#include \"../kernel/tensor_compat.hpp\"\n\n")
	b.WriteString("extern \"C\" __aicore__ void attention_tiling_kernel(__gm__ int64_t *args) {\n")
	b.WriteString("    __gm__ int32_t *seq_lens = reinterpret_cast<__gm__ int32_t *>(tensor_data<int32_t>(args, 0));\n")
	b.WriteString("    __gm__ AttnTilingData *meta = reinterpret_cast<__gm__ AttnTilingData *>(tensor_data<uint8_t>(args, 1));\n")
	b.WriteString("    int32_t max_blocks = static_cast<int32_t>(args[2]);\n    int32_t num_blocks = static_cast<int32_t>(args[3]);\n")
	b.WriteString("    int32_t batch_offset = static_cast<int32_t>(args[4]);\n    int32_t batch_count = static_cast<int32_t>(args[5]);\n")
	b.WriteString("    for (int32_t i = 0; i < batch_count; ++i) {\n        meta->kvLen[i] = seq_lens[batch_offset + i] > max_blocks ? num_blocks : 0;\n    }\n")
	b.WriteString("    dcci(meta, ENTIRE_DATA_CACHE, CACHELINE_OUT);\n    dsb(DSB_DDR);\n}\n")
	return b.String()
}

func genCompat() string {
	return "#ifndef GEN_TENSOR_COMPAT_HPP\n#define GEN_TENSOR_COMPAT_HPP\n#include \"tensor.h\"\n" +
		"#if __has_include(\"task_interface/buffer.h\")\nusing RuntimeTensor = ChipTensor;\n#else\nusing RuntimeTensor = Tensor;\n#endif\n\n" +
		"template <typename T>\n__aicore__ inline __gm__ T *\ntensor_data(__gm__ int64_t *args, int32_t index) {\n" +
		"    __gm__ RuntimeTensor *t = reinterpret_cast<__gm__ RuntimeTensor *>(args[index]);\n" +
		"    return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;\n}\n#endif\n"
}

// genBody is the templated body both attention entries instantiate.
func genBody() string {
	var b strings.Builder
	b.WriteString("#ifndef GEN_ATTN_BODY_HPP\n#define GEN_ATTN_BODY_HPP\n\n#include <cstdint>\n#include <type_traits>\n\n")
	b.WriteString("#include \"kernel_operator.h\"\n#include \"tensor_compat.hpp\"\n#include \"../generated/kernel_tiling.h\"\n")
	b.WriteString("#include \"../vendor/fa/flash_attention_regular.h\"\n\n")
	b.WriteString("namespace attn_meta {\nconstexpr uint32_t kBarrierOffset = 2744;\nconstexpr uint32_t kBarrierAlign = 512;\nconstexpr int32_t kQueryArg = 0;\nconstexpr int32_t kKeyArg = 1;\nconstexpr int32_t kValueArg = 2;\n}  // namespace attn_meta\n\n")
	b.WriteString("__aicore__ inline void acquire_metadata(GM_ADDR metadata) {\n    dcci(metadata, ENTIRE_DATA_CACHE, CACHELINE_OUT);\n    dsb(DSB_DDR);\n}\n\n")
	b.WriteString("struct AttnParams {\n    GM_ADDR query;\n    GM_ADDR key;\n    GM_ADDR value;\n    GM_ADDR blockTable;\n    GM_ADDR out;\n    GM_ADDR workspace;\n    GM_ADDR metadata;\n    uint64_t rowOffset;\n};\n\n")
	// The rope part: a dozen reads through the helper.
	b.WriteString("template <bool WithRope>\n__aicore__ inline void run_rope(__gm__ int64_t *args, uint32_t rows) {\n")
	b.WriteString("    if constexpr (WithRope) {\n")
	for i, slot := range []int{7, 8, 9, 10, 11, 12, 13, 14, 15, 16} {
		typ := "float"
		if slot >= 15 {
			typ = "int32_t"
		}
		fmt.Fprintf(&b, "        __gm__ %s *rope_in_%d = tensor_data<%s>(args, %d);\n", typ, i, typ, slot)
	}
	b.WriteString("        for (uint32_t r = 0; r < rows; ++r) {\n            fa::rope_row<float>(rope_in_0 + r, rope_in_1 + r, rope_in_5, rope_in_6, rows);\n        }\n")
	b.WriteString("        int64_t rope_batch = static_cast<int64_t>(args[18]);\n        (void)rope_batch;\n")
	b.WriteString("    }\n}\n\n")
	b.WriteString("template <bool WithRope>\n__aicore__ inline void run_attention(__gm__ int64_t *args, __gm__ int32_t *barrier) {\n")
	b.WriteString("    constexpr int32_t out_arg = WithRope ? 0 : 4;\n    constexpr int32_t query_arg = WithRope ? 1 : 0;\n")
	b.WriteString("    constexpr int32_t key_arg = WithRope ? 2 : 1;\n    constexpr int32_t value_arg = WithRope ? 3 : 2;\n    constexpr int32_t block_table_arg = WithRope ? 4 : 3;\n")
	b.WriteString("    uint64_t cache_row_offset = static_cast<uint64_t>(WithRope ? args[17] : args[7]);\n")
	b.WriteString("    uint64_t cache_byte_offset = cache_row_offset * 128 * sizeof(uint16_t);\n")
	b.WriteString("    GM_ADDR key = tensor_data<uint16_t>(args, key_arg) + cache_byte_offset;\n")
	b.WriteString("    GM_ADDR value = tensor_data<uint16_t>(args, value_arg) + cache_byte_offset;\n")
	b.WriteString("    __gm__ int32_t *block_table = tensor_data<int32_t>(args, block_table_arg);\n")
	b.WriteString("    AttnParams params{tensor_data<uint16_t>(args, query_arg), key, value,\n")
	b.WriteString("                      reinterpret_cast<GM_ADDR>(block_table), tensor_data<uint16_t>(args, out_arg),\n")
	b.WriteString("                      tensor_data<uint8_t>(args, 5), tensor_data<uint8_t>(args, 6), cache_row_offset};\n")
	b.WriteString("    uint32_t row = get_block_idx(args);\n")
	b.WriteString(BodyEditMarker)
	b.WriteString("    run_rope<WithRope>(args, 16);\n")
	b.WriteString("    fa::FlashAttentionRegular<half, WithRope> op;\n    op.Init(params.query, params.key, params.value, params.out, row);\n    op.Process(params.workspace, barrier);\n")
	b.WriteString("}\n\n")
	// Filler helpers with the shape of the real body: small inline helpers,
	// a local tiler and comments.
	for i := 0; i < 18; i++ {
		fmt.Fprintf(&b, "// Row helper %d: computes the window of rows a core serves; the last core\n// takes the remainder so every row is served exactly once.\n", i)
		fmt.Fprintf(&b, "template <typename T>\n__aicore__ inline uint32_t row_window_%d(uint32_t total, uint32_t cores, uint32_t idx, T scale) {\n", i)
		b.WriteString("    uint32_t per = (total + cores - 1) / cores;\n")
		b.WriteString("    uint32_t begin = idx * per;\n    if (begin >= total) {\n        return 0;\n    }\n")
		b.WriteString("    return static_cast<uint32_t>((begin + per > total ? total - begin : per) * scale);\n}\n\n")
	}
	b.WriteString("#endif  // GEN_ATTN_BODY_HPP\n")
	return b.String()
}

// genTilingHeader is a generated header: plain structs and constants.
func genTilingHeader(seed int) string {
	var b strings.Builder
	b.WriteString("// Generated by the tiling generator. Do not edit.\n#ifndef GEN_KERNEL_TILING_H\n#define GEN_KERNEL_TILING_H\n#include <cstdint>\n\n")
	for s := 0; s < 28; s++ {
		fmt.Fprintf(&b, "struct TilingSection%d {\n", s)
		for f := 0; f < 26; f++ {
			fmt.Fprintf(&b, "    uint32_t field%d_%d;  // offset %d\n", s, f, (s*26+f)*4)
		}
		b.WriteString("};\n\n")
	}
	b.WriteString("struct AttnTilingData {\n    uint32_t needCoreNum;\n    uint32_t kvLen[16];\n")
	for s := 0; s < 28; s++ {
		fmt.Fprintf(&b, "    TilingSection%d section%d;\n", s, s)
	}
	b.WriteString("};\n\n")
	fmt.Fprintf(&b, "constexpr uint32_t kTilingSeed = %d;\n", seed)
	b.WriteString("#endif\n")
	return b.String()
}

// genVendor is one vendored header: namespaces, class templates with many
// member functions, nested templates, macros and AscendC pipeline code.
func genVendor(i, seed int) string {
	var b strings.Builder
	guard := fmt.Sprintf("GEN_FA_PART_%02d_HPP", i)
	fmt.Fprintf(&b, "// Vendored attention building block %d (generated).\n#ifndef %s\n#define %s\n\n#include \"kernel_operator.h\"\n", i, guard, guard)
	if i == 0 {
		for j := 1; j < vendorHeaders; j++ {
			fmt.Fprintf(&b, "#include \"%s\"\n", vendorPath(j))
		}
	} else if i > 1 {
		// A few headers include a sibling the way layout/coord headers do.
		rel, _ := filepath.Rel(filepath.Dir(vendorPath(i)), vendorPath(1+(i*7)%(i-1)))
		fmt.Fprintf(&b, "#include \"%s\"\n", filepath.ToSlash(rel))
	}
	fmt.Fprintf(&b, "\n#define FA_TILE_%d(x) (((x) + %d) / %d * %d)\n", i, 15, 16, 16)
	fmt.Fprintf(&b, "#define FA_CHECK_%d(cond) do { if (!(cond)) { return; } } while (0)\n\n", i)
	b.WriteString("namespace fa {\n")
	if i == 0 {
		b.WriteString("template <typename T>\n__aicore__ inline void rope_row(__gm__ T *q, __gm__ T *k, __gm__ T *cos, __gm__ T *sin, uint32_t n) {\n")
		b.WriteString("    AscendC::GlobalTensor<T> gq;\n    gq.SetGlobalBuffer(q, n);\n    (void)k; (void)cos; (void)sin;\n}\n\n")
	}
	for c := 0; c < vendorClasses(i); c++ {
		cls := fmt.Sprintf("Block%d_%d", i, c)
		if i == 0 && c == 0 {
			cls = "FlashAttentionRegular"
		}
		b.WriteString("template <typename ElementT, bool kFlag = false, uint32_t kTile = 128>\n")
		fmt.Fprintf(&b, "class %s {\npublic:\n    __aicore__ inline %s() {}\n\n", cls, cls)
		if cls == "FlashAttentionRegular" {
			b.WriteString("    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, uint32_t row) {\n")
			b.WriteString("        gq_.SetGlobalBuffer(reinterpret_cast<__gm__ ElementT *>(q), kTile);\n        gk_.SetGlobalBuffer(reinterpret_cast<__gm__ ElementT *>(k), kTile);\n")
			b.WriteString("        gv_.SetGlobalBuffer(reinterpret_cast<__gm__ ElementT *>(v), kTile);\n        go_.SetGlobalBuffer(reinterpret_cast<__gm__ ElementT *>(o), kTile);\n        row_ = row;\n    }\n\n")
			b.WriteString("    __aicore__ inline void Process(GM_ADDR ws, __gm__ int32_t *barrier) {\n        (void)ws;\n        (void)barrier;\n")
			b.WriteString("        if ASCEND_IS_AIC {\n            Mmad();\n            AscendC::CrossCoreSetFlag<2, PIPE_FIX>(4);\n        }\n")
			b.WriteString("        if ASCEND_IS_AIV {\n            AscendC::CrossCoreWaitFlag(4);\n            Softmax();\n        }\n    }\n\n")
		}
		for m := 0; m < 4; m++ {
			genMember(&b, i, c, m, seed)
		}
		b.WriteString("private:\n    AscendC::GlobalTensor<ElementT> gq_;\n    AscendC::GlobalTensor<ElementT> gk_;\n")
		b.WriteString("    AscendC::GlobalTensor<ElementT> gv_;\n    AscendC::GlobalTensor<ElementT> go_;\n")
		b.WriteString("    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQueue_;\n    AscendC::TBuf<AscendC::TPosition::VECCALC> calcBuf_;\n")
		b.WriteString("    uint32_t row_ = 0;\n    uint32_t tiles_ = 0;\n")
		if cls == "FlashAttentionRegular" {
			b.WriteString("    __aicore__ inline void Mmad() {}\n    __aicore__ inline void Softmax() {}\n")
		}
		b.WriteString("};\n\n")
		if c%4 == 0 {
			// A nested template: traits with a member template.
			fmt.Fprintf(&b, "template <typename T>\nstruct %sTraits {\n    static constexpr uint32_t kAlign = 32 / sizeof(T);\n    template <uint32_t N>\n    struct Rounded {\n        static constexpr uint32_t value = (N + kAlign - 1) / kAlign * kAlign;\n    };\n};\n\n", cls)
		}
	}
	b.WriteString("}  // namespace fa\n\n")
	fmt.Fprintf(&b, "#endif  // %s\n", guard)
	return b.String()
}

// genMember writes one ~30-line member function of pipeline code; the
// first of every other class is a member template.
func genMember(b *strings.Builder, i, c, m, seed int) {
	name := fmt.Sprintf("Stage%d", m)
	fmt.Fprintf(b, "    // %s moves one tile through the pipeline: copy in, scale, copy out.\n", name)
	b.WriteString("    // The flags order MTE2 -> V -> MTE3 on the same buffer; the queue\n    // holds two buffers so the next copy-in overlaps this compute.\n")
	if m == 0 && c%2 == 0 {
		b.WriteString("    template <typename LayoutT>\n")
		fmt.Fprintf(b, "    __aicore__ inline void %s(const LayoutT &layout, uint32_t offset, uint32_t count) {\n", name)
	} else {
		fmt.Fprintf(b, "    __aicore__ inline void %s(uint32_t offset, uint32_t count) {\n", name)
	}
	b.WriteString("        AscendC::LocalTensor<ElementT> in = inQueue_.template AllocTensor<ElementT>();\n")
	fmt.Fprintf(b, "        uint32_t tiles = FA_TILE_%d(count) / kTile;\n", i)
	fmt.Fprintf(b, "        FA_CHECK_%d(tiles > 0);\n", i)
	b.WriteString("        for (uint32_t t = 0; t < tiles; ++t) {\n")
	b.WriteString("            AscendC::DataCopy(in, gq_[offset + t * kTile], kTile);\n")
	b.WriteString("            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);\n")
	b.WriteString("            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);\n")
	b.WriteString("            if constexpr (kFlag) {\n                AscendC::SetAtomicAdd<ElementT>();\n            }\n")
	fmt.Fprintf(b, "            AscendC::Muls(in, in, static_cast<ElementT>(%d), kTile);\n", (i+c+m+seed)%7+1)
	b.WriteString("            AscendC::PipeBarrier<PIPE_V>();\n")
	b.WriteString("            AscendC::Adds(in, in, static_cast<ElementT>(1), kTile);\n")
	b.WriteString("            AscendC::PipeBarrier<PIPE_V>();\n")
	b.WriteString("            // Rows past the valid length are zeroed so the reduction\n            // that follows reads no stale data.\n")
	b.WriteString("            AscendC::Duplicate(in, static_cast<ElementT>(0), kTile / 2);\n")
	b.WriteString("            AscendC::PipeBarrier<PIPE_V>();\n")
	b.WriteString("            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);\n")
	b.WriteString("            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);\n")
	b.WriteString("            AscendC::DataCopy(go_[offset + t * kTile], in, kTile);\n")
	b.WriteString("            if constexpr (kFlag) {\n                AscendC::SetAtomicNone();\n            }\n")
	b.WriteString("        }\n")
	if m == 0 && c%2 == 0 {
		b.WriteString("        tiles_ += layout.template Shape<0>() > 0 ? tiles : 0;\n")
	} else {
		b.WriteString("        tiles_ += tiles;\n")
	}
	b.WriteString("        inQueue_.FreeTensor(in);\n    }\n\n")
}
