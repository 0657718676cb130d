// Package engine is the library the front ends (`extern-lsp check`, the
// language server) share, so a finding is found, selected, fixed and
// explained the same way in both:
//
//   - Analyse is the one door into the analysis of one file, and Checker
//     (Collect or Document, then Check) the door for many: check, abi and
//     the server's publish, pull, workspace diagnostics and fix-all all
//     run files through them, each under its configuration with the front
//     end's Overrides on top (select.go: the one place the selection
//     layers are merged);
//   - Fixer is the fix engine (safety tiers, conflicts, parse guard,
//     iterate to a fixed point); DiffEdit turns its result into the edit
//     the server sends;
//   - Fixed.Write writes fixed files through analysis/fsys, the one
//     write path.
//
// The suppression model (NOLINT / `# noqa` parsing and writing) lives in
// analysis/suppress.go, because the per-file driver applies it; this
// package and the server use it from there. See docs/architecture.md.
package engine
