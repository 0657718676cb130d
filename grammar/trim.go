package grammar

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
static void trim_c_heap(void) { malloc_trim(0); }
#if __GLIBC__ > 2 || __GLIBC_MINOR__ >= 33
static long long c_heap_arenas(void) { return (long long)mallinfo2().arena; }
#else
static long long c_heap_arenas(void) { return -1; }
#endif
#else
static void trim_c_heap(void) {}
static long long c_heap_arenas(void) { return -1; }
#endif
*/
import "C"

// trimAfter is the node count past which freeing a C tree also hands the
// C allocator's free pages back to the system: tree-sitter's tree of a
// large file (about 80 bytes a node) otherwise stays resident, freed but
// kept by malloc, for the rest of the process.
const trimAfter = 1 << 16

// trimCHeap returns the C heap's free pages to the system.
func trimCHeap() { C.trim_c_heap() }

// cHeapArenas is the memory glibc's malloc arenas hold from the system, in
// use or free (a trim releases free pages but still counts them), -1
// without glibc: the tests bound how far a parse grows it.
func cHeapArenas() int64 { return int64(C.c_heap_arenas()) }
