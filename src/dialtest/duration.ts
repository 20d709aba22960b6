/** Go durations in task JSON (`"500ms"`); a bad one is a task check error, as in the reference. */
import { parseDuration } from '../shared/duration.js'

export function parseGoDuration(s: string): bigint {
  const ns = parseDuration(s)
  if (ns === null) throw new Error(`time: invalid duration "${s}"`)
  return ns
}

/** A duration option in milliseconds, `def` when absent. */
export function durationMs(s: string | undefined, def: number): number {
  return s ? Number(parseGoDuration(s) / 1_000_000n) : def
}
