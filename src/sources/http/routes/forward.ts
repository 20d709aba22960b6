/**
 * Routes answered by the first upstream (spec 4.2, 4.3, 4.16), as the reference agent does:
 * `POST /v1/query/raw` gets the upstream's token filled in and its answer is returned verbatim
 * with 200; object label changes are forwarded as sent, and an upstream refusal becomes
 * 500 `{errorCode, message}` (spec 7).
 */
import type { Context, Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import { upstreamFetch } from '../../../sinks/dataway/network.js'
import { userAgent } from '../../../sinks/dataway/send.js'
import type { Upstream } from '../../../sinks/dataway/upstream.js'
import { readBody } from '../../../http/body.js'
import type { HttpDeps, HttpEnv } from '../deps.js'

function upstreamOf(deps: HttpDeps): Upstream {
  const up = deps.upstream()
  if (!up) throw new FerryError('noUpstream', 'no upstream is configured ([dataway] urls)')
  if (!up.token) throw new FerryError('noUpstream', 'the first upstream URL has no token')
  return up
}

async function forward(
  deps: HttpDeps,
  up: Upstream,
  method: string,
  path: string,
  body: string,
): Promise<Response> {
  const query = path.includes('?') ? '' : up.query ? `?${up.query}` : ''
  const url = `${up.origin}${path}${query}`
  try {
    return await upstreamFetch(up, url, {
      method,
      body: method === 'GET' ? undefined : body,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': userAgent(deps.identity.version, deps.identity.host),
      },
      signal: AbortSignal.timeout(deps.config.dataway.timeout),
    })
  } catch (e) {
    throw new FerryError('forwardFailed', `${method} ${up.label}${path}: ${(e as Error).message}`, {
      cause: e,
    })
  }
}

async function jsonText(c: Context<HttpEnv>, deps: HttpDeps): Promise<[string, unknown]> {
  const bytes = await readBody(c.env?.incoming, c.req.raw, deps.config.http_api.max_body_size)
  const text = Buffer.from(bytes).toString('utf8')
  try {
    return [text, JSON.parse(text)]
  } catch (e) {
    throw new FerryError('invalidJson', `json.Unmarshal: ${(e as Error).message}`)
  }
}

const json = { 'Content-Type': 'application/json' }

async function labels(c: Context<HttpEnv>, deps: HttpDeps, method: string): Promise<Response> {
  const up = upstreamOf(deps)
  const [text] = await jsonText(c, deps)
  const res = await forward(deps, up, method, '/v1/object/labels', text)
  const answer = await res.text()
  if (res.ok) return new Response(answer, { status: 200, headers: json })
  let errorCode = 'agent.forwardFailed'
  try {
    errorCode = String((JSON.parse(answer) as { errorCode?: string }).errorCode || errorCode)
  } catch {
    // Not JSON: keep the generic code; the status says what happened.
  }
  const message = `upstream answered ${res.status}`
  return new Response(JSON.stringify({ errorCode, message }), { status: 500, headers: json })
}

export function forwardRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  app.post('/v1/query/raw', async (c) => {
    const up = upstreamOf(deps)
    const [, parsed] = await jsonText(c, deps)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new FerryError('invalidJson', 'json.Unmarshal: the body must be a JSON object')
    const p = parsed as { token?: unknown; queries?: unknown; echo_explain?: unknown }
    // Only the known fields travel on, as the reference agent re-marshals its struct.
    const body = {
      token: p.token || up.token,
      queries: p.queries ?? null,
      echo_explain: p.echo_explain === true,
    }
    const res = await forward(deps, up, 'POST', '/v1/query/raw', JSON.stringify(body))
    return new Response(await res.text(), { status: 200, headers: json })
  })
  // Spec 4.13: the browser SDK's remote configuration; the upstream's answer goes back as is.
  app.get('/v1/env_variable', async (c) => {
    const up = upstreamOf(deps)
    const q = new URLSearchParams(up.query)
    q.set('app_id', c.req.query('app_id') ?? '')
    q.set('scope', 'rum')
    const res = await forward(deps, up, 'GET', `/v1/env_variable?${q}`, '')
    return new Response(await res.text(), { status: res.status, headers: json })
  })
  app.post('/v1/object/labels', (c) => labels(c, deps, 'POST'))
  app.delete('/v1/object/labels', (c) => labels(c, deps, 'DELETE'))
}
