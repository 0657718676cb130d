// Core selection that also builds in the simulator (which defines only the
// pto family): one macro per core type, 1 on its own core, 0 elsewhere;
// and a flag macro defined on the vector core alone.
#pragma once
#if defined(__DAV_C220_VEC__) || defined(__DAV_VEC__)
#define ON_VEC 1
#define VEC_ONLY
#else
#define ON_VEC 0
#endif
