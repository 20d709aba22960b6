/**
 * `ferry monitor`: a live terminal view of a running agent, read from its `GET /v1/monitor`
 * (loopback only, like every management route). Redraws in place on a terminal; `--once`
 * prints one frame and exits (non-zero when the agent cannot be reached).
 */
import { FerryError } from '../errors.js'
import { splitListen } from '../http/server.js'
import { renderSnapshot } from './render.js'
import type { Snapshot } from './snapshot.js'

export const MONITOR_USAGE = `  monitor [--url URL] [--interval 2s] [--once]
                           live view of a running agent (default URL from [http_api] listen)`

/** Where to reach an agent listening on `listen`: a wildcard address means this host. */
export function agentUrl(listen: string, tls: boolean): string {
  const { hostname, port } = splitListen(listen)
  const host = hostname === '0.0.0.0' ? '127.0.0.1' : hostname === '::' ? '::1' : hostname
  return `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`
}

async function fetchSnapshot(url: string): Promise<Snapshot> {
  let res: Response
  try {
    res = await fetch(`${url}/v1/monitor`, { signal: AbortSignal.timeout(5000) })
  } catch (e) {
    throw new FerryError(
      'forwardFailed',
      `cannot reach the agent at ${url}: ${(e as Error).message}`,
    )
  }
  if (!res.ok)
    throw new FerryError('forwardFailed', `${url}/v1/monitor: ${res.status} ${await res.text()}`)
  return (await res.json()) as Snapshot
}

export interface MonitorOptions {
  url: string
  intervalMs: number
  once: boolean
  write?: (text: string) => void
}

export async function monitorCommand(o: MonitorOptions): Promise<void> {
  const write = o.write ?? ((t: string) => process.stdout.write(t))
  if (o.once) return write(`${renderSnapshot(await fetchSnapshot(o.url))}\n`)
  const clear = process.stdout.isTTY ? '\x1b[2J\x1b[H' : ''
  for (;;) {
    let frame: string
    try {
      frame = renderSnapshot(await fetchSnapshot(o.url))
    } catch (e) {
      frame = `${(e as Error).message}\n(retrying every ${o.intervalMs / 1000}s; Ctrl-C to quit)`
    }
    write(`${clear}${frame}\n`)
    await new Promise((r) => setTimeout(r, o.intervalMs))
  }
}
