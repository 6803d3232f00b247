/* string.h for the WebAssembly build of the coalescing model (tools/demo/build.sh): no C
 * library there, only the one function coalesce.c calls, defined in demo_wasm.c. */
#ifndef CL_DEMO_STRING_H
#define CL_DEMO_STRING_H
#include <stddef.h>
void *memset(void *s, int c, size_t n);
#endif
