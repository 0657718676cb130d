package grammar

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
static void trim_c_heap(void) { malloc_trim(0); }
#else
static void trim_c_heap(void) {}
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
