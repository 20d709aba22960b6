/**
 * One span of the span table → the entries of its point (span-entries.ts), the mapping of
 * `map-traces.ts` for the tasks the trace transcoder takes (no `customer_tags`, no
 * `split_service_name`, no `[otlp] tags`, no `runtime_id`, no events or links): the same keys,
 * values and order, checked as `checkPoint` would find them (any key or value it would correct
 * declines, so the transcoder never has a correction to count).
 */
import { LIMITS } from '../check/options.js'
import { Entries, E_BOOL, E_DIGITS, E_FLOAT, E_INT, E_MESSAGE } from './span-entries.js'
import { IdSet } from './span-ids.js'
import { KNOWN, K_DECLINE, K_REST, keyOf } from './span-keys.js'
import { DECLINE } from './pb-span-wire.js'
import { NO_STATUS, SpanTable, V_ARRAY, V_BOOL, V_DOUBLE, V_INT, V_STR } from './span-table.js'
import { asciiText, tagText } from './span-text.js'
import { SOURCE_TYPES, SOURCE_TYPE_NAMES, SPAN_KINDS } from './span-vocab.js'

export interface SpanTask {
  b: Uint8Array
  t: SpanTable
  maxAttributes: number
  message: boolean
  fingerprint: string
  remoteIp: string
}

export class SpanMapper {
  readonly ids = new IdSet()
  readonly parents = new IdSet()
  readonly e = new Entries()
  /** Attribute rows left for the message, in order; -1 stands for the `trace_id` attribute. */
  rest: Int32Array = new Int32Array(64)
  nRest = 0
  private groupRows = new Int32Array(64)
  private nGroup = 0
  private serviceA = -1
  private serviceE = -1

  /** Each span's id and parent id, for `span_type`. */
  collectIds(t: SpanTable, b: Uint8Array): void {
    this.ids.reset(b, t.n)
    this.parents.reset(b, t.n)
    const c = t.cols
    for (let i = 0; i < t.n; i++) {
      this.ids.add(c.spanA[i], c.spanE[i])
      this.parents.add(c.parentA[i], c.parentE[i])
    }
  }

  /** The resource group's service and the attributes it lends each of its spans. */
  group(k: SpanTask, g: number): void {
    const at = k.t.attrs
    const a = k.t.groupKv[2 * g]
    const e = k.t.groupKv[2 * g + 1]
    if (e - a > k.maxAttributes) throw DECLINE
    if (this.groupRows.length < e - a) this.groupRows = new Int32Array(e - a)
    this.nGroup = 0
    this.serviceA = this.serviceE = -1
    let found = false
    for (let r = a; r < e; r++) {
      const key = keyOf(k.b, at.keyA[r], at.keyE[r])
      if (key === K_DECLINE) throw DECLINE
      if (key < 0 || !KNOWN[key].service) this.groupRows[this.nGroup++] = r
      else if (!found && at.kind[r] === V_STR) {
        found = true
        this.serviceA = at.a[r]
        this.serviceE = at.e[r]
        tagText(k.b, this.serviceA, this.serviceE)
      }
    }
    // The first string `service.name` counts, and an empty one is `unknown_service`.
    if (this.serviceE === this.serviceA) this.serviceA = -1
  }

  private spanType(k: SpanTask, i: number): string {
    const c = k.t.cols
    if (c.parentE[i] === c.parentA[i] || !this.ids.has(c.parentA[i], c.parentE[i])) return 'entry'
    return this.parents.has(c.spanA[i], c.spanE[i]) ? 'local' : 'exit'
  }

  private base(k: SpanTask, i: number): void {
    const { e, t } = { e: this.e, t: k.t }
    const c = t.cols
    e.hex('trace_id', c.traceA[i], c.traceE[i])
    e.hex('parent_id', c.parentA[i], c.parentE[i])
    e.hex('span_id', c.spanA[i], c.spanE[i])
    asciiText(k.b, c.nameA[i], c.nameE[i])
    e.range('resource', false, c.nameA[i], c.nameE[i], true)
    e.number('start', false, E_INT, startMicros(t, i), true)
    e.number('duration', false, E_INT, durationMicros(t, i), true)
    const s = c.status[i]
    e.text(
      'status',
      true,
      s === NO_STATUS ? 'info' : s === 2 ? 'error' : s <= 1 ? 'ok' : 'info',
      true,
    )
    e.text('span_type', true, this.spanType(k, i), true)
    if (k.fingerprint) e.text('dk_fingerprint', true, k.fingerprint, true)
    e.text('source', true, 'opentelemetry', true)
    if (this.serviceA >= 0) e.range('service', true, this.serviceA, this.serviceE, true)
    else e.text('service', true, 'unknown_service', true)
    tagText(k.b, c.nameA[i], c.nameE[i])
    e.range('operation', true, c.nameA[i], c.nameE[i], true)
    e.text('remote_ip', true, k.remoteIp, true)
  }

  /** One attribute: a key of the point when it is public, else kept for the message. */
  private select(k: SpanTask, r: number): void {
    const at = k.t.attrs
    const key = keyOf(k.b, at.keyA[r], at.keyE[r])
    if (key === K_DECLINE) throw DECLINE
    const pub = key === K_REST ? '' : KNOWN[key].pub
    if (!pub) {
      if (this.nRest === this.rest.length) this.rest = grown(this.rest)
      this.rest[this.nRest++] = r
      return
    }
    const kind = at.kind[r]
    const e = this.e
    if (kind === V_INT && pub === 'http_status_code') e.number(pub, true, E_DIGITS, at.num[r])
    else if (kind === V_STR) {
      asciiText(k.b, at.a[r], at.e[r])
      e.range(pub, false, at.a[r], at.e[r])
    } else if (kind === V_DOUBLE) {
      if (!Number.isFinite(at.num[r])) throw DECLINE
      e.number(pub, false, E_FLOAT, at.num[r])
    } else if (kind === V_INT) e.number(pub, false, E_INT, at.num[r])
    else if (kind === V_BOOL) e.number(pub, false, E_BOOL, at.num[r])
    else if (kind === V_ARRAY) throw DECLINE
  }

  /** `db_host` of a span with `db.system`: its first `net.peer.name` or `server.address`. */
  private dbHost(k: SpanTask, a: number, e: number): void {
    const at = k.t.attrs
    let db = false
    let host = -1
    for (let r = a; r < e; r++) {
      const key = keyOf(k.b, at.keyA[r], at.keyE[r])
      if (key < 0) continue
      if (KNOWN[key].dbSystem) db = true
      else if (KNOWN[key].dbHost && host < 0) host = r
    }
    if (!db || host < 0 || at.kind[host] !== V_STR || at.a[host] === at.e[host]) return
    tagText(k.b, at.a[host], at.e[host])
    this.e.range('db_host', true, at.a[host], at.e[host])
  }

  private sourceType(): string {
    let best = 0
    const e = this.e
    for (let j = 0; j < e.n; j++) if (e.live[j]) best = Math.max(best, SOURCE_TYPES[e.key[j]] ?? 0)
    return SOURCE_TYPE_NAMES[best]
  }

  /** Maps span `i`; `group` was called for its resource group. Throws `DECLINE`. */
  span(k: SpanTask, i: number): void {
    const t = k.t
    const c = t.cols
    const e = this.e
    e.reset()
    this.nRest = 0
    if (c.kvE[i] - c.kvA[i] > k.maxAttributes) throw DECLINE
    this.base(k, i)
    if (c.kind[i] < SPAN_KINDS.length) e.text('span_kind', true, SPAN_KINDS[c.kind[i]])
    for (let x = 0; x < this.nGroup; x++) this.select(k, this.groupRows[x])
    const sa = t.scopeKv[2 * c.scope[i]]
    const se = t.scopeKv[2 * c.scope[i] + 1]
    if (se - sa > k.maxAttributes) throw DECLINE
    for (let r = sa; r < se; r++) this.select(k, r)
    for (let r = c.kvA[i]; r < c.kvE[i]; r++) this.select(k, r)
    if (this.nRest === this.rest.length) this.rest = grown(this.rest)
    this.rest[this.nRest++] = -1
    this.dbHost(k, c.kvA[i], c.kvE[i])
    e.text('source_type', true, this.sourceType())
    if (k.message) e.set('message', false, E_MESSAGE)
    // Past the checks' counts the general path drops keys: it maps such a span.
    if (e.tags > LIMITS.maxTags || e.fields > LIMITS.maxFields) throw DECLINE
  }
}

function grown(a: Int32Array): Int32Array {
  const next = new Int32Array(a.length * 2)
  next.set(a)
  return next
}

const TWO32 = 4294967296

/** `Number(start / 1000n)` without a bigint: the halves divided as a long division. */
function startMicros(t: SpanTable, i: number): number {
  const hi = t.startHi[i]
  return Math.floor(hi / 1000) * TWO32 + Math.floor(((hi % 1000) * TWO32 + t.startLo[i]) / 1000)
}

/** `Number((end - start) / 1000n)`; bigints only for what doubles would not give exactly. */
function durationMicros(t: SpanTable, i: number): number {
  const hi = t.endHi[i] - t.startHi[i]
  const d = hi * TWO32 + (t.endLo[i] - t.startLo[i])
  if (d >= 0 && hi < 1024) return Math.floor(d / 1000)
  const big = (h: number, l: number) => (BigInt(h) << 32n) | BigInt(l)
  return Number((big(t.endHi[i], t.endLo[i]) - big(t.startHi[i], t.startLo[i])) / 1000n)
}
