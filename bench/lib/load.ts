/**
 * A small closed-loop HTTP load generator: `connections` keep-alive connections, each sending
 * the same pre-built body back to back for `seconds`. Counts 2xx answers and latencies.
 */
import http from 'node:http'

export interface LoadResult {
  ok: number
  failed: number
  seconds: number
  latenciesMs: number[]
  statuses: Record<number, number>
}

/** One POST of `body`, its status and latency counted in `result`; never rejects. */
export function postOnce(
  agent: http.Agent,
  target: URL,
  body: Buffer,
  headers: Record<string, string>,
  result: LoadResult,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const started = performance.now()
    const req = http.request(
      {
        agent,
        method: 'POST',
        hostname: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        headers: { ...headers, 'Content-Length': body.length },
      },
      (res) => {
        res.resume()
        res.on('end', () => {
          const s = res.statusCode ?? 0
          result.statuses[s] = (result.statuses[s] ?? 0) + 1
          if (s >= 200 && s < 300) result.ok++
          else result.failed++
          result.latenciesMs.push(performance.now() - started)
          resolve()
        })
      },
    )
    req.on('error', () => {
      result.failed++
      result.statuses[-1] = (result.statuses[-1] ?? 0) + 1
      resolve()
    })
    req.end(body)
  })
}

/** `body`: the same bytes each time, or a function giving each request's. */
export async function runLoad(
  url: string,
  body: Buffer | (() => Buffer),
  seconds: number,
  connections: number,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const target = new URL(url)
  const deadline = performance.now() + seconds * 1000
  const result: LoadResult = { ok: 0, failed: 0, seconds, latenciesMs: [], statuses: {} }
  const next = typeof body === 'function' ? body : () => body
  const one = () => postOnce(agent, target, next(), headers, result)
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await one()
    }),
  )
  result.seconds = (performance.now() - t0) / 1000
  agent.destroy()
  return result
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}
