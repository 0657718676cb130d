package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDcciFixLeavesLoops: EXT001's unsafe fix, through the binary's --diff:
// a loop-invariant address gets its dcci before the loop, an indexed one an
// ENTIRE_DATA_CACHE dcci before the loop, a read after a cross-core wait in
// the loop keeps its dcci inside, and so does a read through a pointer the
// loop advances.
func TestDcciFixLeavesLoops(t *testing.T) {
	dir := t.TempDir()
	src := `extern "C" __global__ __aicore__ void k(__gm__ int64_t *args)
{
    __gm__ int32_t *flags = reinterpret_cast<__gm__ int32_t *>(args[0]);
    __gm__ int32_t *lens = reinterpret_cast<__gm__ int32_t *>(args[1]);
    int32_t n = static_cast<int32_t>(args[2]);
    int32_t s = 0;
    for (int32_t r = 0; r < 622; ++r) {
        for (int32_t c = 0; c < 4; ++c) {
            s += lens[n];
        }
    }
    for (int32_t i = 0; i < 622; ++i) {
        if (s > 0) {
            s += lens[i];
        }
    }
    for (int32_t i = 0; i < 622; ++i) s -= lens[i];
    for (int32_t i = 0; i < n; ++i) {
        AscendC::CrossCoreWaitFlag(1);
        s += flags[i];
    }
    __gm__ int32_t *p = lens;
    while (s > 0) {
        s -= *p;
        p += 16;
    }
    flags[get_block_idx(args)] = s;
}
`
	if err := os.WriteFile(filepath.Join(dir, "k.cpp"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, dir, "check", "--diff", "--unsafe-fixes", "--select", "EXT001", "k.cpp")
	want := `@@ -4,23 +4,28 @@
     __gm__ int32_t *lens = reinterpret_cast<__gm__ int32_t *>(args[1]);
     int32_t n = static_cast<int32_t>(args[2]);
     int32_t s = 0;
+    dcci(&lens[n], SINGLE_CACHE_LINE);
     for (int32_t r = 0; r < 622; ++r) {
         for (int32_t c = 0; c < 4; ++c) {
             s += lens[n];
         }
     }
+    dcci(lens, ENTIRE_DATA_CACHE);
     for (int32_t i = 0; i < 622; ++i) {
         if (s > 0) {
             s += lens[i];
         }
     }
+    dcci(lens, ENTIRE_DATA_CACHE);
     for (int32_t i = 0; i < 622; ++i) s -= lens[i];
     for (int32_t i = 0; i < n; ++i) {
         AscendC::CrossCoreWaitFlag(1);
+        dcci(&flags[i], SINGLE_CACHE_LINE);
         s += flags[i];
     }
     __gm__ int32_t *p = lens;
     while (s > 0) {
+        dcci(p, SINGLE_CACHE_LINE);
         s -= *p;
         p += 16;
`
	if !strings.Contains(r.stdout, want) {
		t.Errorf("--diff --unsafe-fixes:\n%s\nwant the hunk:\n%s\nstderr: %s", r.stdout, want, r.stderr)
	}
	titles := runBinary(t, dir, "check", "--format", "concise", "--select", "EXT001", "--output-format", "json", "k.cpp").stdout
	for _, w := range []string{
		"Insert `dcci(&lens[n], SINGLE_CACHE_LINE);` before the loop (the address does not change in it)",
		"Insert `dcci(lens, ENTIRE_DATA_CACHE);` before the loop (`&lens[i]` changes in it; this invalidates every line it reads)",
		"Insert `dcci(&flags[i], SINGLE_CACHE_LINE);` before the statement",
	} {
		if !strings.Contains(titles, w) {
			t.Errorf("no fix titled %q in\n%s", w, titles)
		}
	}
}
