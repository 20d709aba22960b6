/**
 * glibc malloc settings the shipped service and container start the agent with. glibc raises
 * its mmap threshold each time a large block is freed, so after a burst of large buffers (a
 * 16 MiB pipeline debug answer, a 64 MiB body) later large blocks come from the heap, and freed
 * heap memory below its top is never returned: the agent's RSS stayed 40-60% above its
 * baseline after hostile debug scripts although every worker that held them had ended. A fixed
 * threshold (which also turns the raising off) and trim threshold keep large blocks in their own
 * mappings, given back when freed. glibc reads them only at process start, so they are set by
 * whoever starts the process (`GLIBC_TUNABLES`; other C libraries ignore it).
 */
export const MALLOC_TUNABLES =
  'glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072'
