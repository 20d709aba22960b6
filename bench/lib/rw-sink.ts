/**
 * What the benchmark sinks count (`sink-server.ts`): the samples of a Prometheus remote write
 * body (Snappy-compressed protobuf `WriteRequest`: field 2 of each time series, field 1 of the
 * request), and the points of a Ferry upload (PBPoints: field 1 of the message). Line protocol
 * reaches vmagent as one sample per numeric field, so delivered points are samples over those.
 */
import { snappyDecode } from './snappy.js'

function varint(b: Uint8Array, at: number): [number, number] {
  let v = 0
  let mul = 1
  for (;;) {
    const byte = b[at++]
    v += (byte & 0x7f) * mul
    if (byte < 0x80) return [v, at]
    mul *= 128
  }
}

/** Calls `fn(fieldNumber, start, end)` for each length-delimited field; skips the others. */
export function eachLen(
  b: Uint8Array,
  from: number,
  to: number,
  fn: (f: number, s: number, e: number) => void,
) {
  let at = from
  while (at < to) {
    const [key, next] = varint(b, at)
    at = next
    const wire = key & 7
    if (wire === 2) {
      const [len, s] = varint(b, at)
      fn(key >>> 3, s, s + len)
      at = s + len
    } else if (wire === 0) at = varint(b, at)[1]
    else if (wire === 1) at += 8
    else if (wire === 5) at += 4
    else throw new Error(`remote write: wire type ${wire}`)
  }
}

export function countSamples(body: Uint8Array): number {
  const msg = snappyDecode(body)
  let samples = 0
  eachLen(msg, 0, msg.length, (f, s, e) => {
    if (f === 1) eachLen(msg, s, e, (g) => void (g === 2 && samples++))
  })
  return samples
}

/** Points of a PBPoints body (already decompressed): its field 1 entries. */
export function countPoints(msg: Uint8Array): number {
  let points = 0
  eachLen(msg, 0, msg.length, (f) => void (f === 1 && points++))
  return points
}
