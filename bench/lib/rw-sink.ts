/**
 * A counting upstream for `vmagent`: accepts Prometheus remote write bodies (Snappy-compressed
 * protobuf `WriteRequest`), decodes them and counts the samples (field 2 of each time series,
 * field 1 of the request). Line protocol reaches vmagent as one sample per field, so delivered
 * points are samples over fields per point.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
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
function eachLen(
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

export class RemoteWriteSink {
  samples = 0
  bodies = 0
  errors = 0
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      try {
        this.samples += countSamples(Buffer.concat(chunks))
        this.bodies++
        res.writeHead(204)
      } catch {
        this.errors++
        res.writeHead(400)
      }
      res.end()
    })
  })

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1/write`
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((r) => this.server.close(() => r()))
  }
}
