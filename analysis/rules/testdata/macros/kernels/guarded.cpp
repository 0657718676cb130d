// Macros that carry control flow around the setup of a mixed kernel. The
// analysis reads the bodies of the macros defined here; the vendor header
// is not in the tree, so what its macros do is out of sight.
#include "kernel_operator.h"
#include "vendor/register_macros.h"

// The cube serves the vector cores from inside the setup and leaves.
#define VEC_ONLY_SETUP(ctx)  \
  if ASCEND_IS_AIC {         \
    (ctx).Serve();           \
    return;                  \
  }                          \
  (ctx).Init()
#define CUBE_LEAVES if (g_coreType == AscendC::AIC) return
#define LEAVE_ON_CUBE() do { CUBE_LEAVES; } while (0)
#define INIT_CTX(ctx) (ctx).Init()
#define CHECK_OR_RETURN(ok) if (!(ok)) { return; }
#define RUN_PHASE(name) phase_##name()
#define LEAVE_UNLESS(name) if (!name##_ready()) { return; }
#define RUN_STEP(name) STEP_##name()

struct Ctx {
  __aicore__ void Init() {}
  __aicore__ void Serve() {}
};

extern "C" __global__ __aicore__ void guarded(__gm__ int64_t *args) {
  Ctx ctx;
  VEC_ONLY_SETUP(ctx);
  AscendC::SyncAll(); // the cube left inside the macro: the vector barrier is the right one
}

__aicore__ inline void cube_leaves() {
  CUBE_LEAVES;
  AscendC::SyncAll();
}

__aicore__ inline void nested_leave() {
  LEAVE_ON_CUBE();
  AscendC::SyncAll();
}

__aicore__ inline void setup_stays(__gm__ int64_t *args) {
  Ctx ctx;
  INIT_CTX(ctx);
  CHECK_OR_RETURN(args != nullptr);
  AscendC::SyncAll(); // want "EXT004.*vector-only barrier.*use `SyncAll<false>\\(\\)`$"
}

__aicore__ inline void vendor_setup() {
  Ctx ctx;
  VENDOR_REGISTER(ctx);
  AscendC::SyncAll(); // want "EXT004.*the fix is offered as unsafe: `VENDOR_REGISTER\\(ctx\\)` \\(line 52\\) looks like a macro whose definition is in no file of this extern \\(not found: `vendor/register_macros.h`\\)"
}

template <bool kCubeServes>
__aicore__ inline void templated_tail() {
  if constexpr (kCubeServes) {
    if ASCEND_IS_AIC {
      return;
    }
  }
  AscendC::SyncAll(); // want "EXT004.*offered as unsafe: the condition `\\(kCubeServes\\)` \\(line 58\\) depends on the template argument `kCubeServes`"
}

__aicore__ inline void phase_cube() {}

// A pasting macro is read per pasted argument: `RUN_PHASE(cube)` is
// `phase_cube()`, which does nothing the fix could undo.
__aicore__ inline void pasted() {
  RUN_PHASE(cube);
  AscendC::SyncAll(); // want "EXT004.*vector-only barrier.*use `SyncAll<false>\\(\\)`$"
}

__aicore__ inline bool cube_ready() { return true; }

// Its instance returns: the exit model does not follow that return, so
// the fix is not promised.
__aicore__ inline void pasted_leaves() {
  LEAVE_UNLESS(cube);
  AscendC::SyncAll(); // want "EXT004.*offered as unsafe: `LEAVE_UNLESS\\(cube\\)` \\(line 80\\) expands to a `return` that extern-lsp does not follow out of the function"
}

// Its instance uses a macro no file of the unit defines: `STEP_SYNC()`
// is out of sight.
__aicore__ inline void pasted_unknown() {
  RUN_STEP(SYNC);
  AscendC::SyncAll(); // want "EXT004.*offered as unsafe: `RUN_STEP\\(SYNC\\)` \\(line 87\\) uses a macro whose body extern-lsp cannot read as statements"
}

__aicore__ inline void FLUSH_LINE(__gm__ int32_t *p) { dcci(p, SINGLE_CACHE_LINE, CACHELINE_OUT); }

__aicore__ inline void capitalised_helper(__gm__ int32_t *p) {
  FLUSH_LINE(p);
  AscendC::SyncAll(); // want "EXT004.*use `SyncAll<false>\\(\\)`$"
}
