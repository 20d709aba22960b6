/**
 * A benchmark upstream in its own process, so the sink's work never shares a thread with the
 * load generator or the bench driver. `node sink-server.js ferry` decompresses each Ferry upload
 * (gzip, the default) and counts its points by walking the protobuf; `remote-write` does the
 * same for vmagent (Snappy, then the WriteRequest's samples): both sinks decode every body,
 * the same kind of work per delivered point. `GET /count` answers the totals as JSON.
 */
import http from 'node:http'
import zlib from 'node:zlib'
import { countPoints, countSamples } from './rw-sink.js'
import { serveOnLoopback } from './serve.js'

const kind = process.argv[2] === 'remote-write' ? 'remote-write' : 'ferry'
const totals = { items: 0, bodies: 0, errors: 0 }

function inflate(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip') return zlib.gunzipSync(body)
  if (encoding === undefined || encoding === 'identity') return body
  throw new Error(`the bench sink reads gzip uploads only, not ${encoding}`)
}

function count(req: http.IncomingMessage, body: Buffer): number {
  if (kind === 'remote-write') return countSamples(body)
  return countPoints(inflate(body, req.headers['content-encoding']))
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET') return void res.end(JSON.stringify(totals))
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    try {
      totals.items += count(req, Buffer.concat(chunks))
      totals.bodies++
      res.writeHead(kind === 'ferry' ? 200 : 204)
    } catch {
      totals.errors++
      res.writeHead(400)
    }
    res.end()
  })
})
serveOnLoopback(server)
