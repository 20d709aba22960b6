/**
 * A raw Snappy block decoder (the format Prometheus remote write bodies use), written from the
 * published format description: a varint of the decoded length, then literal and copy
 * elements. Only for the benchmark's counting sink: a malformed block throws.
 */
function readVarint(b: Uint8Array, at: number): [number, number] {
  let v = 0
  let shift = 0
  for (;;) {
    const byte = b[at++]
    v += (byte & 0x7f) * 2 ** shift
    if (byte < 0x80) return [v, at]
    shift += 7
    if (shift > 35) throw new Error('snappy: length varint too long')
  }
}

function le(b: Uint8Array, at: number, n: number): number {
  let v = 0
  for (let i = n - 1; i >= 0; i--) v = v * 256 + b[at + i]
  return v
}

export function snappyDecode(src: Uint8Array): Uint8Array {
  const [size, start] = readVarint(src, 0)
  const out = new Uint8Array(size)
  let i = start
  let o = 0
  while (i < src.length) {
    const tag = src[i++]
    const kind = tag & 3
    if (kind === 0) {
      let len = tag >> 2
      if (len >= 60) {
        const n = len - 59
        len = le(src, i, n)
        i += n
      }
      len += 1
      out.set(src.subarray(i, i + len), o)
      i += len
      o += len
      continue
    }
    let len: number
    let offset: number
    if (kind === 1) {
      len = ((tag >> 2) & 7) + 4
      offset = ((tag >> 5) << 8) | src[i++]
    } else {
      len = (tag >> 2) + 1
      const n = kind === 2 ? 2 : 4
      offset = le(src, i, n)
      i += n
    }
    if (offset === 0 || offset > o) throw new Error('snappy: bad copy offset')
    // Copies may overlap their own output (a run): byte by byte.
    for (let k = 0; k < len; k++, o++) out[o] = out[o - offset]
  }
  if (o !== size) throw new Error('snappy: decoded length mismatch')
  return out
}
