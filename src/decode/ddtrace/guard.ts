/**
 * A pass over a msgpack or JSON body before it is decoded, reading only headers and lengths:
 * the msgpack library builds objects with an explicit stack and has no depth limit, and a body
 * of one-byte empty arrays or maps would become tens of bytes of heap per byte. So the body is
 * refused (413 `ddtraceLimitExceeded`) when it nests deeper than a span's wire form ever does,
 * holds more arrays and maps than its spans could need, or a string longer than the limit; a
 * msgpack body that ends inside a value is `invalidDdtrace` (400).
 */
import { FerryError } from '../../errors.js'

// traces → trace → span → span_links → link → attributes → a value: 7 at most; 2 spare.
export const MAX_DEPTH = 9

export interface GuardLimits {
  /** Arrays and maps the body may hold in all. */
  maxContainers: number
  maxStringBytes: number
}

function limit(message: string): FerryError {
  return new FerryError('ddtraceLimitExceeded', message)
}

class Walk {
  pos = 0
  containers = 0
  /** Values still to read in each open array or map (a map's pairs count twice). */
  readonly open: number[] = []
  private readonly view: DataView

  constructor(
    private readonly b: Uint8Array,
    private readonly l: GuardLimits,
  ) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength)
  }

  uint(n: 1 | 2 | 4): number {
    if (this.pos + n > this.b.length) throw new FerryError('invalidDdtrace', 'msgpack ends early')
    const v =
      n === 1
        ? this.b[this.pos]
        : n === 2
          ? this.view.getUint16(this.pos)
          : this.view.getUint32(this.pos)
    this.pos += n
    return v
  }

  skip(n: number, str = false): false {
    if (str && n > this.l.maxStringBytes)
      throw limit(`a msgpack string of ${n} bytes, more than ${this.l.maxStringBytes}`)
    if (this.pos + n > this.b.length) throw new FerryError('invalidDdtrace', 'msgpack ends early')
    this.pos += n
    return false
  }

  /** True when the container holds values still to read. */
  container(items: number): boolean {
    if (++this.containers > this.l.maxContainers)
      throw limit(`more than ${this.l.maxContainers} msgpack arrays and maps`)
    if (this.open.length >= MAX_DEPTH) throw limit(`msgpack nested deeper than ${MAX_DEPTH}`)
    if (items > 0) this.open.push(items)
    return items > 0
  }
}

/** Sizes of the fixed-width types by their first byte (0 when the byte is no such type). */
function fixedSize(t: number): number {
  if (t <= 0x7f || t >= 0xe0 || t === 0xc0 || t === 0xc2 || t === 0xc3) return 0
  if (t === 0xcc || t === 0xd0) return 1
  if (t === 0xcd || t === 0xd1) return 2
  if (t === 0xca || t === 0xce || t === 0xd2) return 4
  if (t === 0xcb || t === 0xcf || t === 0xd3) return 8
  if (t >= 0xd4 && t <= 0xd8) return 1 + (1 << (t - 0xd4))
  return -1
}

/** One value's header: a container opens (true), anything else is skipped whole. */
function step(w: Walk): boolean {
  const t = w.uint(1)
  if (t >= 0x80 && t <= 0x8f) return w.container((t & 0x0f) * 2)
  if (t >= 0x90 && t <= 0x9f) return w.container(t & 0x0f)
  if (t >= 0xa0 && t <= 0xbf) return w.skip(t & 0x1f, true)
  if (t === 0xdc || t === 0xdd) return w.container(w.uint(t === 0xdc ? 2 : 4))
  if (t === 0xde || t === 0xdf) return w.container(w.uint(t === 0xde ? 2 : 4) * 2)
  if (t >= 0xd9 && t <= 0xdb) return w.skip(w.uint(([1, 2, 4] as const)[t - 0xd9]), true)
  if (t >= 0xc4 && t <= 0xc6) return w.skip(w.uint(([1, 2, 4] as const)[t - 0xc4]), true)
  if (t >= 0xc7 && t <= 0xc9) return w.skip(w.uint(([1, 2, 4] as const)[t - 0xc7]) + 1, true)
  const n = fixedSize(t)
  if (n < 0) throw new FerryError('invalidDdtrace', `msgpack type byte 0x${t.toString(16)}`)
  return w.skip(n)
}

export function guardMsgpack(body: Uint8Array, l: GuardLimits): void {
  const w = new Walk(body, l)
  do {
    if (step(w)) continue
    // A value was read whole: count it in its container, closing each one that is full.
    while (w.open.length > 0 && --w.open[w.open.length - 1] === 0) w.open.pop()
  } while (w.open.length > 0)
}

/** The same bounds for JSON: brackets outside strings, and each string's length. */
export function guardJson(text: string, l: GuardLimits): void {
  let depth = 0
  let containers = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      const start = i
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++)
        if (text.charCodeAt(i) === 0x5c) i++
      if (i - start - 1 > l.maxStringBytes)
        throw limit(`a JSON string of ${i - start - 1} characters, more than ${l.maxStringBytes}`)
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) throw limit(`JSON nested deeper than ${MAX_DEPTH}`)
      if (++containers > l.maxContainers)
        throw limit(`more than ${l.maxContainers} JSON arrays and objects`)
    } else if (c === 0x5d || c === 0x7d) depth--
  }
}
