/**
 * Well-behaved clients for the hostile benchmark: `clients` keep-alive connections, each from
 * its own loopback address (127.0.0.x, so each is its own client for the rate limit), sending
 * the same small body until `stop()`: back to back, but never more than `perSecond` a second.
 * A client that outran the agent's per-client rate limit would be measuring the limit (its
 * 429s), not the agent: the first runs of this benchmark answered tens of thousands of 429s in
 * the run without attack, and none under attack, where the agent was slower than the limit.
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
  perSecond: number,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress })
  const one = () => postOnce(agent, url, body, {}, result)
  const t0 = performance.now()
  return (async () => {
    for (let sent = 0; !until(); sent++) {
      // The n-th request waits for its turn: a client late on its schedule sends at once.
      const wait = t0 + (sent * 1000) / perSecond - performance.now()
      if (wait > 1) await new Promise((r) => setTimeout(r, wait))
      await one()
    }
    agent.destroy()
  })()
}

export function startClients(
  target: string,
  body: Buffer,
  clients: number,
  perSecond: number,
): Clients {
  const url = new URL(target)
  const result: LoadResult = { ok: 0, failed: 0, seconds: 0, latenciesMs: [], statuses: {} }
  let stopped = false
  const t0 = performance.now()
  const loops = Array.from({ length: clients }, (_, i) =>
    client(url, body, `127.0.0.${10 + i}`, result, () => stopped, perSecond),
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
