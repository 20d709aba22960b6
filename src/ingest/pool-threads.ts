/** How many decode threads `[decode] workers` means, for the pool and for the decode shares. */
import os from 'node:os'

/** The pool's threads for `[decode] workers` (0: one per available core). */
export function poolThreads(workers: number): number {
  return workers || os.availableParallelism()
}
