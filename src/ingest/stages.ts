/**
 * The general path's stages over a task's points (process.ts runs them in order): times
 * resolved, checks and corrections, global tags, the pipeline (its output checked again), and
 * the encoding of what is kept.
 */
import { FerryError } from '../errors.js'
import { hasKey, type Point } from '../shared/point.js'
import { checkPoint } from '../decode/check/check.js'
import { dropEmpty, NO_FIELD } from '../decode/check/empty.js'
import { optionsFor } from '../decode/check/options.js'
import { PbWriter } from '../decode/codec/pb-writer.js'
import { encodePoint } from '../decode/codec/protobuf.js'
import type { BodyFormat } from '../decode/parse-body.js'
import { resolveTime } from '../decode/precision.js'
import type { DecodeTask } from './protocol.js'
import type { PipelineHost } from '../pipeline/worker-host.js'
import type { Applied } from '../pipeline/apply.js'
import { withRoom } from '../shared/payload-room.js'

export function resolveTimes(points: Point[], t: DecodeTask, format: BodyFormat): void {
  for (let i = 0; i < points.length; i++) {
    const p = points[i]
    const time = resolveTime(p.time, t.precision, t.now)
    if (time === null) {
      const code =
        format === 'lp'
          ? 'invalidLinePoint'
          : format === 'json'
            ? 'invalidJsonPoint'
            : 'invalidProtobufPoint'
      throw new FerryError(
        code,
        `point ${i} (${p.name}): timestamp ${p.time} at precision ${t.precision ?? 'auto'} overflows int64 nanoseconds`,
      )
    }
    p.time = time
  }
}

/** Checks every point; field-less points are then dropped and counted under `no_field`. */
export function checkAll(points: Point[], t: DecodeTask): Record<string, number> {
  const opts = optionsFor(t.category)
  const warnings: Record<string, number> = {}
  for (const p of points) {
    checkPoint(p, opts)
    if (!p.warns) continue
    if (t.strict)
      throw new FerryError('pointGotWarning', `${p.warns[0].type}: ${p.warns[0].message}`)
    for (const w of p.warns) warnings[w.type] = (warnings[w.type] ?? 0) + 1
  }
  countEmpty(points, warnings)
  return warnings
}

function countEmpty(points: Point[], warnings: Record<string, number>): void {
  const dropped = dropEmpty(points)
  if (dropped > 0) warnings[NO_FIELD] = (warnings[NO_FIELD] ?? 0) + dropped
}

export function addExtraTags(points: Point[], extra: [string, string][]): void {
  if (extra.length === 0) return
  for (const p of points) {
    for (const [key, value] of extra) {
      if (!hasKey(p, key)) p.tags.push({ key, value })
    }
  }
}

/** The points' PBPoints bytes, with room before them (shared/payload-room.ts). */
export function encodeAll(points: Point[], sizeHint: number): Uint8Array {
  const w = new PbWriter(Math.max(1024, sizeHint + (sizeHint >> 1)))
  for (const p of points) encodePoint(w, p)
  return withRoom(w.buf, w.pos)
}

/** Scripts may add, rename or retype keys: their output goes through the checks again. */
export async function runPipeline(
  t: DecodeTask,
  points: Point[],
  host: PipelineHost | null,
  warnings: Record<string, number>,
): Promise<Applied> {
  if (!host || !t.pipeline) return { points, stats: [] }
  const applied = await host.apply(t.category, points, t.pipeline)
  if (applied.stats.length) {
    const opts = optionsFor(t.category)
    for (const p of applied.points) checkPoint(p, opts)
    countEmpty(applied.points, warnings)
  }
  return applied
}
