/**
 * Well-behaved clients for the hostile benchmark: `clients` keep-alive connections, each from
 * its own loopback address (127.0.0.x, so each is its own client for the rate limit), sending
 * the same small body back to back until `stop()`.
 */
import http from 'node:http'
import { postOnce, type LoadResult } from './load.js'

export interface Clients {
  stop(): Promise<LoadResult>
}

function client(
  url: URL,
  body: Buffer,
  localAddress: string,
  result: LoadResult,
  until: () => boolean,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress })
  const one = () => postOnce(agent, url, body, {}, result)
  return (async () => {
    while (!until()) await one()
    agent.destroy()
  })()
}

export function startClients(target: string, body: Buffer, clients: number): Clients {
  const url = new URL(target)
  const result: LoadResult = { ok: 0, failed: 0, seconds: 0, latenciesMs: [], statuses: {} }
  let stopped = false
  const t0 = performance.now()
  const loops = Array.from({ length: clients }, (_, i) =>
    client(url, body, `127.0.0.${10 + i}`, result, () => stopped),
  )
  return {
    async stop() {
      stopped = true
      await Promise.all(loops)
      result.seconds = (performance.now() - t0) / 1000
      return result
    },
  }
}
