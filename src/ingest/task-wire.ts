/**
 * A decode task as it crosses to a worker: a small fixed array instead of an object of a dozen
 * keys, because posting a task structured-clones it on the HTTP thread once per request, and a
 * clone costs per key and per nested array. The body is the array's first slot (transferred,
 * never copied); the global tags travel flat; the members a plain write lacks (RUM, IO, shared
 * memory, OTLP, ddtrace) travel in one object only when one is present. A spare buffer for
 * the payload may ride along in the last slot (ingest/spare-output.ts), outside the task.
 *
 * Invariant: `unpackTask(packTask(t))` equals `t` member for member (absent members stay
 * absent), so the worker decodes exactly what the route built.
 */
import type { DecodeTask } from './protocol.js'

/** The members only some tasks have, in the order they are packed. */
const RARE = ['rum', 'io', 'geo', 'refer', 'otlp', 'ddtrace'] as const
type Rare = Pick<DecodeTask, (typeof RARE)[number]>

/** Members packed into their own slot; with RARE they must cover DecodeTask. */
type Slotted =
  | 'body'
  | 'category'
  | 'contentType'
  | 'encoding'
  | 'precision'
  | 'strict'
  | 'echo'
  | 'now'
  | 'extraTags'
  | 'maxBodyBytes'
  | 'maxPoints'
  | 'pipeline'
  | 'client'
/**
 * Fails to compile when DecodeTask gains a member neither slotted nor in RARE, so a new member
 * cannot silently stay behind on the HTTP thread.
 */
export const everyMemberPacked: Exclude<
  keyof DecodeTask,
  Slotted | (typeof RARE)[number]
> extends never
  ? true
  : never = true

/** The packed form; `unpackTask` reads it back. */
export type PackedTask = readonly [
  body: Uint8Array,
  category: DecodeTask['category'],
  contentType: string,
  encoding: string,
  precision: DecodeTask['precision'],
  strict: boolean,
  echo: DecodeTask['echo'],
  now: bigint,
  /** Global tags as key, value, key, value... */
  extraTags: string[],
  maxBodyBytes: number,
  maxPoints: number,
  pipeline: DecodeTask['pipeline'],
  client: string | null,
  rare: Rare | null,
  /** An output buffer for the payload (ingest/spare-output.ts), transferred; null: none. */
  spare: ArrayBuffer | null,
]

function rareOf(t: DecodeTask): Rare | null {
  let out: Record<string, unknown> | null = null
  for (const k of RARE) {
    if (t[k] === undefined) continue
    out ??= {}
    out[k] = t[k]
  }
  return out as Rare | null
}

export function packTask(t: DecodeTask, spare: ArrayBuffer | null = null): PackedTask {
  const tags: string[] = []
  for (const [k, v] of t.extraTags) tags.push(k, v)
  return [
    t.body,
    t.category,
    t.contentType,
    t.encoding,
    t.precision,
    t.strict,
    t.echo,
    t.now,
    tags,
    t.maxBodyBytes,
    t.maxPoints,
    t.pipeline,
    t.client ?? null,
    rareOf(t),
    spare,
  ]
}

/** The spare output buffer that rode along with the task, if any. */
export function spareOf(p: PackedTask): ArrayBuffer | null {
  return p[14]
}

export function isPackedTask(x: unknown): x is PackedTask {
  return Array.isArray(x)
}

export function unpackTask(p: PackedTask): DecodeTask {
  const extraTags: [string, string][] = []
  for (let i = 0; i + 1 < p[8].length; i += 2) extraTags.push([p[8][i], p[8][i + 1]])
  const t: DecodeTask = {
    body: p[0],
    category: p[1],
    contentType: p[2],
    encoding: p[3],
    precision: p[4],
    strict: p[5],
    echo: p[6],
    now: p[7],
    extraTags,
    maxBodyBytes: p[9],
    maxPoints: p[10],
    pipeline: p[11],
  }
  if (p[12] !== null) t.client = p[12]
  return p[13] === null ? t : Object.assign(t, p[13])
}
