/**
 * `GET /v1/tap?category=&filter=&format=lp|json&sample=`: a stream of accepted points, one per
 * line, until the client goes away. Loopback callers only, whatever `public_apis` says: it shows
 * every point written, from anyone. The stream pulls one batch at a time from the tap's bounded
 * queue, so a slow reader only loses points of its own.
 */
import type { Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import { formatBatch, parseFilter, type TapView } from '../../../ingest/tap-format.js'
import type { TapClient } from '../../../ingest/tap.js'
import { isCategory } from '../../../shared/category.js'
import { clientOf } from '../access/client.js'
import type { HttpDeps, HttpEnv } from '../deps.js'

function viewOf(q: URLSearchParams): TapView {
  const format = q.get('format') ?? 'lp'
  if (format !== 'lp' && format !== 'json')
    throw new FerryError('badRequest', `format: expected lp or json, not ${format}`)
  const sample = Number(q.get('sample') ?? '1')
  if (!(sample > 0 && sample <= 1))
    throw new FerryError('badRequest', 'sample: expected a share in (0, 1]')
  return { filter: parseFilter(q.get('filter') ?? ''), format, sample }
}

function categoriesOf(q: URLSearchParams): Set<string> {
  const names = (q.get('category') ?? '').split(',').filter(Boolean)
  for (const n of names)
    if (!isCategory(n)) throw new FerryError('invalidCategory', `unknown category ${n}`)
  return new Set(names)
}

function stream(tap: TapClient, view: TapView): ReadableStream<Uint8Array> {
  const enc = new TextEncoder()
  return new ReadableStream({
    // A first empty chunk sends the headers at once: the client knows it is attached.
    start: (c) => c.enqueue(new Uint8Array(0)),
    async pull(c) {
      for (;;) {
        const b = await tap.next()
        if (!b) return c.close()
        const text = formatBatch(b, view)
        if (text) return c.enqueue(enc.encode(text))
      }
    },
    cancel: () => tap.close(),
  })
}

export function tapRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const hub = deps.tap
  if (!hub) return
  app.get('/v1/tap', (c) => {
    if (!clientOf(c, deps.access.trusted).loopback)
      throw new FerryError('publicAccessDisabled', 'api /v1/tap answers loopback clients only')
    const q = new URL(c.req.url).searchParams
    const view = viewOf(q)
    const tap = hub.attach(categoriesOf(q))
    c.env?.incoming?.socket?.once('close', () => tap.close())
    return new Response(stream(tap, view), {
      headers: {
        'Content-Type': view.format === 'lp' ? 'text/plain; charset=utf-8' : 'application/x-ndjson',
        'Cache-Control': 'no-store',
      },
    })
  })
}
