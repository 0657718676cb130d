package rules

import (
	"bytes"
	"fmt"
)

// Adversarial shapes for every rule (issue 13: no rule superlinear in the
// size of a function or a file). Each generator writes one extern source of
// about size bytes; every rule runs on every shape in BenchmarkShapes.

const shapePrelude = "#include \"kernel_operator.h\"\n"

// shapeStatements is a block of device code that most rules look at: GM
// scalar loads and stores, cache maintenance, DMA to GM, intra-core
// events, cross-core flags, barriers, getters and pipes. %[1]d numbers it.
const shapeStatements = `  out[%[1]d] = in[%[1]d] + 1;
  dcci(&out[%[1]d], SINGLE_CACHE_LINE, CACHELINE_OUT);
  AscendC::DataCopy(outGm[%[1]d], ub, 64);
  AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(%[2]d);
  flags[get_block_idx()] = %[1]d;
`

func shapeEntryHead(b *bytes.Buffer, name string) {
	fmt.Fprintf(b, "extern \"C\" __global__ __aicore__ void %s(__gm__ int64_t *args) {\n", name)
	b.WriteString("  __gm__ float *out = reinterpret_cast<__gm__ float *>(args[0]);\n")
	b.WriteString("  __gm__ float *in = reinterpret_cast<__gm__ float *>(args[1]);\n")
	b.WriteString("  __gm__ int32_t *flags = reinterpret_cast<__gm__ int32_t *>(args[2]);\n")
	b.WriteString("  AscendC::GlobalTensor<float> outGm;\n  AscendC::LocalTensor<float> ub;\n")
	b.WriteString("  int64_t idx = get_block_idx(args);\n")
}

// shapeGens are the adversarial shapes, by name.
var shapeGens = map[string]func(size int) []byte{
	// One function of about size bytes: every kind of statement, with
	// early returns and barriers among them, under both core guards.
	"one-function": func(size int) []byte {
		var b bytes.Buffer
		b.WriteString(shapePrelude)
		shapeEntryHead(&b, "big")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, shapeStatements, i, i%11)
			switch i % 8 {
			case 0:
				fmt.Fprintf(&b, "  if (idx == %d) return;\n", i)
			case 3:
				b.WriteString("  AscendC::SyncAll();\n")
			case 5:
				b.WriteString("#ifdef __DAV_C220_VEC__\n  AscendC::TPipe pipe;\n  AscendC::CrossCoreWaitFlag(3);\n#endif\n")
			case 6:
				fmt.Fprintf(&b, "  for (int k = 0; k < %d; ++k) {\n    out[k] = %d;\n    if (in[k] > 0) { continue; }\n    AscendC::PipeBarrier<PIPE_ALL>();\n  }\n", i%5+1, i)
			}
		}
		b.WriteString("  AscendC::SyncAll<false>();\n}\n")
		return b.Bytes()
	},
	// Thousands of small functions, each calling two earlier ones (a call
	// DAG with many paths), with the entry calling the last few.
	"many-functions": func(size int) []byte {
		var b bytes.Buffer
		b.WriteString(shapePrelude)
		n := 0
		for ; b.Len() < size; n++ {
			fmt.Fprintf(&b, "__aicore__ inline void helper_%d(__gm__ float *out, __gm__ float *in, __gm__ int32_t *flags, AscendC::GlobalTensor<float> &outGm, AscendC::LocalTensor<float> &ub, int64_t idx) {\n", n)
			fmt.Fprintf(&b, shapeStatements, n, n%11)
			if n > 0 {
				fmt.Fprintf(&b, "  helper_%d(out, in, flags, outGm, ub, idx);\n", n-1)
				fmt.Fprintf(&b, "  if (idx == %d) return;\n", n)
				fmt.Fprintf(&b, "  helper_%d(out, in, flags, outGm, ub, idx);\n", n/2)
			}
			if n%16 == 0 {
				b.WriteString("  AscendC::SyncAll();\n")
			}
			b.WriteString("}\n\n")
		}
		shapeEntryHead(&b, "big")
		for i := max(0, n-4); i < n; i++ {
			fmt.Fprintf(&b, "  helper_%d(out, in, flags, outGm, ub, idx);\n", i)
		}
		b.WriteString("}\n")
		return b.Bytes()
	},
	// Loops nested 12 deep, repeated: the work per statement must not grow
	// with its loop depth times the depth of the loops around it.
	"deep-loops": func(size int) []byte {
		var b bytes.Buffer
		b.WriteString(shapePrelude)
		shapeEntryHead(&b, "big")
		const depth = 12
		for i := 0; b.Len() < size; i++ {
			for d := 0; d < depth; d++ {
				fmt.Fprintf(&b, "for (int i%d = 0; i%d < %d; ++i%d) {\n", d, d, d+2, d)
				fmt.Fprintf(&b, shapeStatements, i*depth+d, d%11)
				if d%3 == 2 {
					fmt.Fprintf(&b, "  if (i%d == idx) break;\n", d)
				}
			}
			// Each body ends with a store in flight and an event set, so
			// a flow analysis needs a second round at every level.
			for d := 0; d < depth; d++ {
				b.WriteString("  AscendC::PipeBarrier<PIPE_ALL>();\n  AscendC::DataCopy(outGm[0], ub, 8);\n  AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID2);\n}\n")
			}
			b.WriteString("  AscendC::PipeBarrier<PIPE_ALL>();\n")
			if i%4 == 0 {
				b.WriteString("  AscendC::SyncAll();\n")
			}
		}
		b.WriteString("}\n")
		return b.Bytes()
	},
	// One loop nest as deep as the size allows (capped where a real parser
	// would give up: 256 levels).
	"nest-depth": func(size int) []byte {
		var b bytes.Buffer
		b.WriteString(shapePrelude)
		shapeEntryHead(&b, "big")
		depth := 0
		for ; b.Len() < size/2 && depth < 256; depth++ {
			fmt.Fprintf(&b, "for (int i%d = 0; i%d < 2; ++i%d) {\n", depth, depth, depth)
			fmt.Fprintf(&b, shapeStatements, depth, depth%11)
		}
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, shapeStatements, depth+i, i%11)
		}
		for d := 0; d < depth; d++ {
			b.WriteString("  AscendC::DataCopy(outGm[0], ub, 8);\n  AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID2);\n}\n")
		}
		b.WriteString("}\n")
		return b.Bytes()
	},
	// One function of about size bytes with no barrier, no wait and no
	// return: every store's write-back window runs to the end of the
	// function.
	"no-barrier": func(size int) []byte {
		var b bytes.Buffer
		b.WriteString(shapePrelude)
		shapeEntryHead(&b, "big")
		for i := 0; b.Len() < size; i++ {
			// flags is stored, invalidated and read again, but never
			// written out: each store's search for a write-back runs to
			// the end.
			fmt.Fprintf(&b, "  flags[%[1]d] = 1;\n  dcci(&flags[%[1]d], SINGLE_CACHE_LINE);\n  out[%[1]d] = in[%[1]d] + flags[%[1]d];\n  dcci(&out[%[1]d], SINGLE_CACHE_LINE, CACHELINE_OUT);\n  AscendC::DataCopy(outGm[%[1]d], ub, 64);\n", i)
			if i%4 == 0 {
				fmt.Fprintf(&b, "  dcci(&in[%d], SINGLE_CACHE_LINE);\n", i)
			}
		}
		b.WriteString("  dsb(DSB_DDR);\n}\n")
		return b.Bytes()
	},
	// One else-if chain as long as the size allows.
	"else-if": elseIfChain(func(b *bytes.Buffer, i int) {
		fmt.Fprintf(b, shapeStatements, i, i%11)
		if i%5 == 0 {
			b.WriteString("    return;\n")
		}
	}),
	// Many helpers, each with a loop, an args read, a GM scalar store, a
	// barrier and a SyncAll, and one entry that calls them all in turn
	// (the shape of BenchmarkSingleFileMemory's kernel).
	"helpers": func(size int) []byte {
		var b bytes.Buffer
		b.WriteString(shapePrelude)
		n := 0
		for ; b.Len() < size; n++ {
			fmt.Fprintf(&b, "__aicore__ inline void phase%d(__gm__ int64_t *args, AscendC::GlobalTensor<float> g) {\n", n)
			fmt.Fprintf(&b, "  int64_t len = args[%d];\n  for (int64_t i = 0; i < len; ++i) {\n", n%8+1)
			fmt.Fprintf(&b, "    if (i %% 4 == %d) { g.SetValue(i, 0.0f); }\n    AscendC::PipeBarrier<PIPE_V>();\n  }\n", n%4)
			b.WriteString("  AscendC::SyncAll<false>();\n}\n")
		}
		b.WriteString("extern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) {\n  AscendC::GlobalTensor<float> g;\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  phase%d(args, g);\n", i)
		}
		b.WriteString("}\n")
		return b.Bytes()
	},
	// An else-if chain whose every branch returns: the chain is as long as
	// the bytes allow, so work per return that grows with the number of
	// tests before it shows at small sizes.
	"else-if-returns": elseIfChain(func(b *bytes.Buffer, i int) {
		fmt.Fprintf(b, "    out[%d] = 0;\n    return;\n", i)
	}),
	// Findings of many rules on one line.
	"one-line": func(size int) []byte {
		var b bytes.Buffer
		b.WriteString(shapePrelude)
		shapeEntryHead(&b, "big")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, " out[%d] = in[%d]; set_ffts_base_addr(0); flags[get_block_idx()] = 1; AscendC::SyncAll(); AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(12); AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1); if (idx == %d) return; AscendC::DataCopy(outGm[%d], ub, 8);", i, i, i, i)
		}
		b.WriteString("\n}\n")
		return b.Bytes()
	},
}

// elseIfChain generates an entry whose body is one else-if chain testing
// idx, as long as the size allows, each branch written by branch.
func elseIfChain(branch func(b *bytes.Buffer, i int)) func(size int) []byte {
	return func(size int) []byte {
		var b bytes.Buffer
		b.WriteString(shapePrelude)
		shapeEntryHead(&b, "big")
		b.WriteString("  if (idx < 0) {\n    return;\n  }")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, " else if (idx == %d) {\n", i)
			branch(&b, i)
			b.WriteString("  }")
		}
		b.WriteString("\n  AscendC::SyncAll();\n}\n")
		return b.Bytes()
	}
}
