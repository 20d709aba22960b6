/**
 * The LMDB map size of the disk buffer, set once at open instead of letting lmdb-js grow the map.
 *
 * Why: a growing map is remapped from offset 0 at each growth, and every earlier mapping stays
 * (buffers handed out may still point into it), so the same file pages are resident once per
 * mapping and the process's RSS counts them again and again. One map from the start keeps the
 * resident buffer pages at most the pages of the file the buffer touched.
 *
 * Invariant: the map is address space, not memory (no page is resident until touched, and the
 * file is not extended to it). It holds twice the buffer's capacity, so B-tree pages and pages
 * freed but not yet reusable fit beside the records; a larger existing file keeps its own size.
 */
import { CATEGORY_NAMES } from '../../shared/category.js'
import type { DiskBufferOptions } from './types.js'

const SLACK = 1024 ** 3
const MIB = 1024 ** 2

/** Bytes, a whole number of MiB (so of pages): capacities come from fractional GB. */
export function mapSizeFor(o: Pick<DiskBufferOptions, 'maxBytesPerCategory' | 'maxTotalBytes'>) {
  const perCategory = o.maxBytesPerCategory * CATEGORY_NAMES.length
  const capacity = Math.min(o.maxTotalBytes ?? perCategory, perCategory)
  return Math.ceil((2 * capacity + SLACK) / MIB) * MIB
}
