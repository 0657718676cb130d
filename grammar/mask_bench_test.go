package grammar

import (
	"fmt"
	"strings"
	"testing"
)

// maskUnit is one piece of kernel and host code with every construct the
// masker rewrites; the benchmarks repeat it.
const maskUnit = `template <typename D, typename S>
__tf__ PTO_INTERNAL OP_NAME(TADD) OP_TYPE(element_wise) void TAdd(typename D::TileDType __out__ dst,
    typename S::TileDType __in__ src, unsigned n
#if PROFILING
    , int idx
#endif
) {
    __VEC_SCOPE__
    {
        RegTensor<float> v;
    }
    __asm__ __volatile__("");
    PTO_CPU_VECTORIZE_LOOP
    for (int c = 0; c < n; c++) {
        CHECK_RET(ret == 0, LOG("x %" PRIu64, c); \
            return);
    }
}
extern "C" __global__ AICORE void k(__gm__ uint8_t *x) { K<T><<<n, s>>>(x);; }
struct B : A {
    int f() const override { return 0; };
};
REG_OP(Add)
    .INPUT(x1, TensorType::IntegerDataType())
    .OP_END_FACTORY_REG(Add)
`

// BenchmarkMask masks growing sources: the cost per byte stays flat (one
// pass; each look-ahead is bounded).
func BenchmarkMask(b *testing.B) {
	for _, n := range []int{64 << 10, 1 << 20, 8 << 20} {
		src := []byte(strings.Repeat(maskUnit, n/len(maskUnit)+1)[:n])
		b.Run(fmt.Sprint(n>>10, "KB"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Mask(src)
			}
		})
	}
}

// BenchmarkMaskUnterminatedGroups masks a call whose arguments hold
// thousands of #if lines without an #endif: each looks ahead a bounded
// distance, not to the end of the file.
func BenchmarkMaskUnterminatedGroups(b *testing.B) {
	for _, n := range []int{1 << 10, 16 << 10} {
		src := []byte("void f() {\n  g(a\n" + strings.Repeat("#if X\n  , b\n", n) + "  );\n}\n")
		b.Run(fmt.Sprint(n, "groups"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Mask(src)
			}
		})
	}
}
