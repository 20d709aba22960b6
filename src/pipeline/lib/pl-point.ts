/**
 * The point as a pipeline script sees it: keys in two maps (tags, fields; `KeyMap`, arrays
 * rather than hash tables, key-map.ts), one namespace for reading. Converted from and back to the shared `Point` around a script run.
 *
 * Invariants:
 * - A key lives in `tags` or in `fields`, never both.
 * - `src` is the point as it entered; an error restores it (a failed script changes nothing).
 * - Fields the script did not touch go back as their original `Field` (kind, type, unit kept).
 */
import { keyIsClean, nameIsClean, tagValueIsClean } from '../../decode/check/keys.js'
import { Hint, Kind, type Field, type Point, type Tag, type Value } from '../../shared/point.js'
import type { AggOp } from '../agg/ops.js'
import { sizeOf, type RunBudget } from './budget.js'
import { jsonText } from './json-text.js'
import { KeyMap } from './key-map.js'
import type { PlValue } from './pl-value.js'

export type { PlValue } from './pl-value.js'

export interface PlPoint {
  name: string
  tags: KeyMap<string>
  fields: KeyMap<PlValue>
  /**
   * Field keys holding a number that must stay a float even when it is whole; null until
   * the first (most log lines have none: no set per point).
   */
  floats: Set<string> | null
  time: bigint
  dropped: boolean
  /** exit() was called or the script failed: later calls skip the point. */
  done: boolean
  error: string | null
  created: PlPoint[] | null
  src: Point
  /** The caps of the run this point is in; null outside a run. */
  budget: RunBudget | null
  /** point_window() in this run: the window and the stream it belongs to. */
  window?: { before: number; after: number; stream: string }
  /** window_hit() in this run. */
  windowHit?: boolean
  /** agg_create/agg_metric operations of this point's run, for the main thread's buckets. */
  agg?: AggOp[]
}

function inValue(f: Field): PlValue {
  if (f.kind === Kind.UINT && typeof f.value === 'bigint') return f.value
  return f.value as PlValue
}

/**
 * The most keys the last point converted back held at once (keys a script sets and deletes
 * count): the room the next point's maps start with, since a batch's points look alike
 * (key-map.ts). Bounded, so one point with many keys
 * does not make every later one allocate as many slots.
 */
const ROOM_MAX = 64
let tagRoom = 0
let fieldRoom = 0

export function toPl(p: Point): PlPoint {
  const tags = new KeyMap<string>(Math.max(p.tags.length, tagRoom))
  for (const t of p.tags) tags.set(t.key, t.value)
  const fields = new KeyMap<PlValue>(Math.max(p.fields.length, fieldRoom))
  let floats: Set<string> | null = null
  for (const f of p.fields) {
    fields.set(f.key, inValue(f))
    if (f.kind === Kind.FLOAT) (floats ??= new Set()).add(f.key)
  }
  return {
    name: p.name,
    tags,
    fields,
    floats,
    time: p.time ?? 0n,
    dropped: false,
    done: false,
    error: null,
    created: null,
    src: p,
    budget: null,
  }
}

export function newPl(name: string, time: bigint): PlPoint {
  const src: Point = { name, tags: [], fields: [], time, warns: null }
  return toPl(src)
}

function kindOf(pl: PlPoint, key: string, v: PlValue): Kind {
  switch (typeof v) {
    case 'string':
      return Kind.STRING
    case 'boolean':
      return Kind.BOOL
    case 'bigint':
      return Kind.INT
    case 'number':
      return pl.floats?.has(key) || !Number.isInteger(v) ? Kind.FLOAT : Kind.INT
    default:
      return v instanceof Uint8Array ? Kind.BYTES : Kind.STRING
  }
}

function outField(pl: PlPoint, key: string, v: PlValue, orig: Field | undefined): Field | null {
  if (v === null || v === undefined) return null
  if (orig && orig.value === v) return orig
  const kind = kindOf(pl, key, v)
  const value: Value =
    typeof v === 'object' && !(v instanceof Uint8Array) ? jsonText(v) : (v as Value)
  return { key, kind, value }
}

/**
 * The arrays fromPl builds in, reused: a point's arrays are copied out of them at their exact
 * length. Pushed into a fresh `[]`, a log line's twenty fields leave an array of 40 slots
 * after one of 16 (V8's growth), garbage and a retained tail that, with a thousand points a
 * batch held until encoding, went from the worker's small young generation to its old one.
 * Entries past the last point's count are stale references, overwritten by the next point.
 */
const fieldScratch: Field[] = []
const tagScratch: Tag[] = []

/**
 * Back to the shared model; an errored point comes back exactly as it entered.
 *
 * The point goes through the checks again (spec 8), so its hints spare them work they would
 * find nothing to do in: UNIQUE because each map holds a key once (a key in both is still
 * found by the checks' tag/field test), CLEAN when the name, every key (tested as if dots
 * were renamed, the stricter rule) and every tag value need no correction, the same tests
 * the checks open with. Keys are tested here while they are walked anyway.
 */
export function fromPl(pl: PlPoint): Point {
  if (pl.error !== null) return pl.src
  const src = pl.src.fields
  let clean = nameIsClean(pl.name)
  let n = 0
  // Indexed walks: no closure, no [key, value] pair per entry (a line carries tens of keys).
  const fm = pl.fields
  for (let k = 0; k < fm.size; k++) {
    const key = fm.keyAt(k)
    // Few original fields (often just `message`): a scan beats building a map.
    let orig: Field | undefined
    for (let i = 0; i < src.length; i++) if (src[i].key === key) orig = src[i]
    const f = outField(pl, key, fm.valueAt(k), orig)
    if (!f) continue
    fieldScratch[n++] = f
    if (clean) clean = keyIsClean(key, true)
  }
  const fields = fieldScratch.slice(0, n)
  const tm = pl.tags
  for (let k = 0; k < tm.size; k++) {
    const key = tm.keyAt(k)
    const value = tm.valueAt(k)
    tagScratch[k] = { key, value }
    if (clean) clean = keyIsClean(key, true) && tagValueIsClean(value)
  }
  const tags = tagScratch.slice(0, tm.size)
  tagRoom = Math.min(tm.peak, ROOM_MAX)
  fieldRoom = Math.min(fm.peak, ROOM_MAX)
  const hints = Hint.UNIQUE | (clean ? Hint.CLEAN : 0)
  return { name: pl.name, tags, fields, time: pl.time, warns: null, hints }
}

/** Reads a key: fields first, then tags; undefined when absent. */
export function getKey(pl: PlPoint, key: string): PlValue | undefined {
  const v = pl.fields.get(key)
  if (v !== undefined) return v
  return pl.tags.get(key)
}

/** Sets a key; a tag stays a tag while the value is a string. */
export function setKey(pl: PlPoint, key: string, v: PlValue, float = false): void {
  pl.budget?.charge(key.length + sizeOf(v))
  if (pl.tags.has(key)) {
    if (typeof v === 'string') {
      pl.tags.set(key, v)
      return
    }
    pl.tags.delete(key)
  }
  pl.fields.set(key, v)
  if (float) (pl.floats ??= new Set()).add(key)
  else pl.floats?.delete(key)
}

export function deleteKey(pl: PlPoint, key: string): void {
  pl.tags.delete(key)
  pl.fields.delete(key)
  pl.floats?.delete(key)
}

export function hasKey(pl: PlPoint, key: string): boolean {
  return pl.fields.has(key) || pl.tags.has(key)
}
