// Package benchgen writes the realistic inputs the benchmarks measure: a
// generated extern unit with the shape of a real attention kernel
// (WriteUnits) and one file of many distinct kernels (ManyKernels). It is
// not a test package: `extern-lsp bench` runs its editor and check
// figures on the same inputs the Go benchmarks use.
package benchgen
