/**
 * The uploads of `bench:cluster`: agents' bodies (protobuf, gzip, 3,000 points) sent to one or
 * more workspace instances, `connections` keep-alive connections per instance, each with its
 * own package id (`X-Pkg-Id`) as an agent's uploader sends them, so every body is looked up
 * and recorded as in production (the bench turns content dedupe off: it sends one body's
 * bytes again and again).
 */
import http from 'node:http'
import { postOnce, type LoadResult } from './load.js'
import { PB_HEADERS } from './workspace-ingest.js'

export async function uploadLoad(
  urls: string[],
  body: Buffer,
  seconds: number,
  connections: number,
  run: string,
): Promise<LoadResult> {
  const result: LoadResult = { ok: 0, failed: 0, seconds, latenciesMs: [], statuses: {} }
  const deadline = performance.now() + seconds * 1000
  const agents = urls.map(() => new http.Agent({ keepAlive: true, maxSockets: connections }))
  let n = 0
  const t0 = performance.now()
  await Promise.all(
    urls.flatMap((url, u) =>
      Array.from({ length: connections }, async () => {
        const target = new URL(url)
        while (performance.now() < deadline) {
          const headers = { ...PB_HEADERS, 'X-Pkg-Id': `${run}-${n++}` }
          await postOnce(agents[u], target, body, headers, result)
        }
      }),
    ),
  )
  result.seconds = (performance.now() - t0) / 1000
  for (const a of agents) a.destroy()
  return result
}
