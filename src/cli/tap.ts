/**
 * `ferry tap`: prints the points a running agent accepts, one per line, as they are buffered
 * (read from its loopback-only `GET /v1/tap`). `--count N` stops after N points; otherwise it
 * runs until interrupted or until the agent goes away.
 */
import { FerryError } from '../errors.js'

export interface TapOptions {
  url: string
  category?: string
  filter?: string
  format?: string
  sample?: string
  /** Stop after this many lines; 0 = never. */
  count: number
  write?: (text: string) => void
}

function tapUrl(o: TapOptions): string {
  const q = new URLSearchParams()
  for (const k of ['category', 'filter', 'format', 'sample'] as const) {
    const v = o[k]
    if (v !== undefined) q.set(k, v)
  }
  return `${o.url}/v1/tap${q.size ? `?${q}` : ''}`
}

async function open(url: string, signal: AbortSignal): Promise<Response> {
  let res: Response
  try {
    res = await fetch(url, { signal })
  } catch (e) {
    throw new FerryError(
      'forwardFailed',
      `cannot reach the agent at ${url}: ${(e as Error).message}`,
    )
  }
  if (!res.ok || !res.body)
    throw new FerryError('forwardFailed', `${url}: ${res.status} ${await res.text()}`)
  return res
}

export async function tapCommand(o: TapOptions): Promise<void> {
  const write = o.write ?? ((t: string) => process.stdout.write(t))
  const abort = new AbortController()
  const res = await open(tapUrl(o), abort.signal)
  const decoder = new TextDecoder()
  let pending = ''
  let lines = 0
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true })
      const cut = pending.lastIndexOf('\n') + 1
      if (!cut) continue
      let out = pending.slice(0, cut).split('\n').slice(0, -1)
      pending = pending.slice(cut)
      if (o.count > 0) out = out.slice(0, o.count - lines)
      lines += out.length
      if (out.length) write(`${out.join('\n')}\n`)
      if (o.count > 0 && lines >= o.count) break
    }
  } finally {
    abort.abort()
  }
}
