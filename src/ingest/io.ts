/**
 * `[io]` on the write path, host side: what each decode task is told to do after the pipeline
 * (IO filters, `auto_timestamp_correction`) and the clock it is stamped with (the upstream's,
 * when `[dataway.ntp]` found an offset). `io-apply.ts` does it in the worker.
 *
 * Invariant (the fast path): a category with no filters and no correction gets no `io` on its
 * tasks at all, so the worker does no work and allocates nothing for it.
 */
import { CATEGORY_NAMES, type Category } from '../shared/category.js'

export interface IoTask {
  /** Re-time points more than 2h from the task's `now`, keeping `__orig_time`. */
  correctTimes: boolean
  /** The category's blacklist conditions (filter strings); empty when none. */
  filters: readonly string[]
}

export interface IoEvents {
  pointsFiltered(category: Category, points: number): void
  pointsRetimed(category: Category, points: number): void
}

export interface IoSettings {
  /** Milliseconds to add to the local clock when stamping a task. */
  clockOffsetMs(): number
  task(c: Category): IoTask | undefined
  events: IoEvents
}

export interface IoOptions {
  autoTimestampCorrection: boolean
  filters: Readonly<Record<string, readonly string[]>>
}

export function ioSettings(o: IoOptions, offsetMs: () => number, events: IoEvents): IoSettings {
  const tasks = new Map<Category, IoTask>()
  for (const c of CATEGORY_NAMES) {
    const filters = o.filters[c] ?? []
    if (o.autoTimestampCorrection || filters.length)
      tasks.set(c, Object.freeze({ correctTimes: o.autoTimestampCorrection, filters }))
  }
  return { clockOffsetMs: offsetMs, task: (c) => tasks.get(c), events }
}
