/**
 * One collection run of a polled input: collect within the time limit, add the instance's
 * tags, submit, and account for it (duration, points, errors, last run) in one place.
 */
import { FerryError } from '../errors.js'
import { hasKey, type Point } from '../shared/point.js'
import type { InputEvents } from '../telemetry/input-events.js'
import type { PolledInput } from './input.js'
import type { Submitter } from './submit.js'

export interface Instance {
  name: string
  input: PolledInput
  /** `[inputs.<name>.tags]`: added to every point that lacks the key. */
  tags: Record<string, string>
  /** Per-run time limit, ms. */
  timeout: number
}

export function addTags(points: Point[], tags: Record<string, string>): void {
  const pairs = Object.entries(tags)
  if (!pairs.length) return
  for (const p of points)
    for (const [key, value] of pairs) if (!hasKey(p, key)) p.tags.push({ key, value })
}

/** Rejects with collectTimeout (and aborts the signal) when `ms` pass first. */
export async function withLimit<T>(
  ms: number,
  what: string,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const ac = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      ac.abort()
      reject(new FerryError('collectTimeout', `${what}: no result within ${ms}ms`))
    }, ms)
  })
  try {
    return await Promise.race([run(ac.signal), limit])
  } finally {
    clearTimeout(timer)
  }
}

export function asFerryError(e: unknown): FerryError {
  if (e instanceof FerryError) return e
  return new FerryError('collectFailed', (e as Error)?.message ?? String(e))
}

export async function runOnce(i: Instance, submit: Submitter, events: InputEvents): Promise<void> {
  const started = performance.now()
  try {
    const now = BigInt(Date.now()) * 1_000_000n
    const points = await withLimit(i.timeout, `input ${i.name}`, (signal) =>
      i.input.collect({ signal, now }),
    )
    events.collected(i.name, (performance.now() - started) / 1000)
    addTags(points, i.tags)
    const stored = await submit.submit(i.name, i.input.category, points)
    events.buffered(i.name, stored)
  } catch (e) {
    events.failed(i.name, asFerryError(e))
  }
}
