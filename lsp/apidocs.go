package lsp

// apiDocs are the hover texts for AscendC / CCE names whose behaviour inside
// an extern is easy to get wrong. They state the facts the rules rest on
// (ascendc-facts and the CCE extern kernel guide, section noted).
var apiDocs = map[string]string{
	"SyncAll": "```cpp\ntemplate <bool isAIVOnly = true> void AscendC::SyncAll();\n```\n" +
		"Hardware barrier over every core of the launch.\n\n" +
		"- `SyncAll()` = `SyncAll<true>()`: orders the **vector cores only**; the cube cores run a cube-only barrier. " +
		"In a mixed extern nothing then orders cube against vector, and if another path calls `SyncAll<false>()` the kernel hangs (507018).\n" +
		"- `SyncAll<false>()`: the whole-core barrier (per-type syncs on AIC and AIV, then cube↔vector). Use it in mixed externs.\n" +
		"- Uses FFTS flag ids **11–14**: do not use them for your own `CrossCoreSetFlag` in the same kernel.\n" +
		"- Needs every core present: `pl.spmd(N, sync_start=True)` with N = the cluster count, and `dual_aiv_dispatch=True` on a mixed stub.\n" +
		"- The software form `SyncAll(gmWorkspace, ubWorkspace, usedCores)` does not support mixed kernels and needs a live TPipe.\n\n" +
		"Guide §5.",
	"CrossCoreSetFlag": "```cpp\ntemplate <uint8_t modeId, pipe_t pipe> void AscendC::CrossCoreSetFlag(uint16_t flagId);\n```\n" +
		"Sets FFTS cross-core flag `flagId` (0–15) for the cores selected by the mode:\n\n" +
		"- mode 0: all cubes or all vectors of the launch; mode 1: the two vectors of one cluster; mode 2: one cube and its two vectors.\n" +
		"- Intra-group only: mode 2 is **not** a global barrier (use `SyncAll<false>()` for that).\n" +
		"- Flags 11–14 belong to the hardware `SyncAll`; libraries also take 0..2N-1 (Matmul), 8–10 (catlass), 12–15 (pto-isa CV comm).\n" +
		"- Raw form: `ffts_cross_core_sync(pipe, 0x1 | (mode << 4) | (flag << 8))`; alias `NotifyEvent<pipe>(id)` (mode 2).\n\n" +
		"Guide §5.",
	"CrossCoreWaitFlag": "```cpp\ntemplate <uint8_t modeId = 0, pipe_t pipe = PIPE_S> void AscendC::CrossCoreWaitFlag(uint16_t flagId);\n```\n" +
		"Waits until cross-core flag `flagId` (0–15) is set by the partner cores of the mode (see `CrossCoreSetFlag`).\n\n" +
		"- Per-pair synchronisation, not a global barrier.\n" +
		"- Do not wait on 11–14 (the hardware `SyncAll`'s flags).\n" +
		"- Raw form: `wait_flag_dev(flag)`; alias `WaitEvent(id)`.\n\n" +
		"Guide §5.",
	"TPipe": "```cpp\nclass AscendC::TPipe;\n```\n" +
		"Manages UB/L1 buffers and their pipe events.\n\n" +
		"- The constructor inserts synchronisation: on the **cube** core it pre-sets `M_MTE1` events 0–2, which clashes with kernels managing those events and hangs the cube. " +
		"Create a vector-phase TPipe under a vector guard (`#ifdef __DAV_C220_VEC__` / `if ASCEND_IS_AIV`).\n" +
		"- `Destroy()` (and the destructor) waits on those events and adds a `PIPE_ALL` barrier; `TPipe pipe; pipe.Destroy();` (catlass `Arch::Resource`) is a deliberate create-then-release idiom.\n" +
		"- Never keep two live TPipes at once on one core.\n\n" +
		"Guide §3.",
	"DataCopy": "```cpp\nAscendC::DataCopy(dst, src, count);\n```\n" +
		"DMA copy between GM and local buffers (MTE2 GM→UB/L1, MTE3 UB→GM). MTE2 reads are coherent with the host's and other cores' writes, " +
		"unlike scalar `__gm__` loads, which go through the scalar data cache.\n\n" +
		"There is no `--cce-auto-sync` in the extern build: synchronise each handoff yourself, e.g. before reading a copied scalar:\n" +
		"```cpp\nAscendC::DataCopy(seqLensUb, gSeqLens, kBatch);\n" +
		"AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID3);\n" +
		"AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID3);\n" +
		"int32_t pos = seqLensUb.GetValue(b);\n```\n" +
		"Guide §4.",
	"dcci": "```cpp\ndcci(ptr, SINGLE_CACHE_LINE | ENTIRE_DATA_CACHE | CACHELINE_OUT);\n```\n" +
		"Data cache clean/invalidate for scalar `__gm__` accesses.\n\n" +
		"- Before a scalar GM **read** written by DMA or another core in the same task: `dcci(ptr, SINGLE_CACHE_LINE)` (or `ENTIRE_DATA_CACHE`).\n" +
		"- After a scalar GM **store** that others read: `dcci(ptr, CACHELINE_OUT)` then `dsb(DSB_DDR)`.\n" +
		"- The runtime invalidates each core's scalar cache only at the start of a task.\n\n" +
		"Guide §4, §5.",
	"dsb": "```cpp\ndsb(DSB_DDR);\n```\n" +
		"Data synchronisation barrier: waits until earlier memory accesses reach the given level. " +
		"Pair it with `dcci(ptr, CACHELINE_OUT)` after scalar GM stores. " +
		"Do not wrap every mixed-core barrier in `dsb(DSB_DDR)` by habit: `SyncAll<false>()` with MTE3→GM producers and MTE2 consumers was validated without it; re-evaluate when the producer writes through the data cache.\n\n" +
		"Guide §5.",
	"get_block_idx": "```cpp\nget_block_idx(args)\n```\n" +
		"This task's block index. Use the forms that take the task's `args`: `get_block_idx(args)`, `get_block_num(args)`, `get_sub_block_id(args)`.\n\n" +
		"The zero-argument getters (`get_block_idx()`, `get_block_num()`, `get_subblockid()`, `GetBlockIdx()`, `GetBlockNum()`, `GetSubBlockIdx()`) read the **persistent launch grid** of the whole die, not `pl.spmd(N)`; " +
		"`get_subblockid()` returns 0 on both vector lanes.\n\nGuide §1.",
	"__DAV_C220_CUBE__": "Defined when ccec compiles the **cube** (AIC) member of an A2/A3 extern (`--cce-aicore-arch=dav-c220-cube`).\n\n" +
		"A mixed extern's file is usually compiled twice, once as cube and once as vector; code under no guard runs on both. " +
		"pto-isa's `SYNCALL` keys on `__DAV_CUBE__` instead: a hand-ported barrier guarded on the wrong family compiles to nothing. " +
		"The a2a3sim simulator defines `__DAV_CUBE__` but not `__DAV_C220_CUBE__`.\n\nGuide §5.",
	"__DAV_C220_VEC__": "Defined when ccec compiles the **vector** (AIV) member of an A2/A3 extern (`--cce-aicore-arch=dav-c220-vec`).\n\n" +
		"Guard vector-only setup (a RoPE phase's `TPipe`, UB buffers) with it; code under no guard also runs on the cube. " +
		"pto-isa keys on `__DAV_VEC__`; the a2a3sim simulator defines `__DAV_VEC__` but not `__DAV_C220_VEC__`.\n\nGuide §3, §5.",
	"__DAV_CUBE__": "pto-isa's cube-core macro. ccec also defines it on device for the cube compile, and the a2a3sim simulator defines only this family (with `__CPU_SIM`).\n\n" +
		"Extern code in the guide keys on `__DAV_C220_CUBE__`; pto-isa's `SYNCALL` keys on `__DAV_CUBE__`. Mixing the families in one barrier makes one side a no-op.\n\nGuide §5.",
	"__DAV_VEC__": "pto-isa's vector-core macro. ccec also defines it on device for the vector compile, and the a2a3sim simulator defines only this family (with `__CPU_SIM`).\n\n" +
		"Extern code in the guide keys on `__DAV_C220_VEC__`; pto-isa's `SYNCALL` keys on `__DAV_VEC__`.\n\nGuide §5.",
	"ASCEND_IS_AIV": "`if ASCEND_IS_AIV { ... }` expands to `if constexpr (g_coreType == AscendC::AIV)`: the block compiles only in the vector build.\n\nGuide §3.",
	"ASCEND_IS_AIC": "`if ASCEND_IS_AIC { ... }` expands to `if constexpr (g_coreType == AscendC::AIC)`: the block compiles only in the cube build.\n\nGuide §3.",
	"SetSyncBaseAddr": "```cpp\nAscendC::SetSyncBaseAddr(addr);\n```\n" +
		"**Never in an extern.** The runtime sets the FFTS base address once for the persistent kernel; a different value redirects every later task on that core.\n\nGuide §1, §5.",
	"set_ffts_base_addr": "```cpp\nset_ffts_base_addr(addr);\n```\n" +
		"**Never in an extern.** The persistent kernel calls it once at launch; the extern runs as a task inside it and inherits the address.\n\nGuide §1.",
	"ffts_cross_core_sync": "```cpp\nffts_cross_core_sync(pipe, config);   // config = 0x1 | (mode << 4) | (flag << 8)\n```\n" +
		"Raw form of `CrossCoreSetFlag`: `mode = (config >> 4) & 3`, `flag = (config >> 8) & 0xF`. Flags 11–14 belong to the hardware `SyncAll`.\n\nGuide §5.",
	"wait_flag_dev": "```cpp\nwait_flag_dev(flag);\n```\nRaw form of `CrossCoreWaitFlag`: waits for cross-core flag `flag` (0–15).\n\nGuide §5.",
}

func init() {
	apiDocs["get_block_num"] = apiDocs["get_block_idx"]
	apiDocs["get_sub_block_id"] = apiDocs["get_block_idx"]
	apiDocs["get_subblockid"] = apiDocs["get_block_idx"]
	apiDocs["GetBlockIdx"] = apiDocs["get_block_idx"]
	apiDocs["GetBlockNum"] = apiDocs["get_block_idx"]
	apiDocs["GetSubBlockIdx"] = apiDocs["get_block_idx"]
	apiDocs["NotifyEvent"] = apiDocs["CrossCoreSetFlag"]
	apiDocs["WaitEvent"] = apiDocs["CrossCoreWaitFlag"]
}
