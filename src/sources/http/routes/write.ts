/**
 * `POST /v1/write/:category` (spec 4.1): the category is checked before the body is read; the
 * body goes to a decode worker; accepted points go to the buffer, and only then the 200.
 */
import type { IncomingMessage } from 'node:http'
import type { Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import { isCategory } from '../../../shared/category.js'
import { readBody } from '../../../http/body.js'
import { accept } from '../../../ingest/accept.js'
import type { Context } from 'hono'
import type { RumTask } from '../../../ingest/rum.js'
import { clientIp } from '../../../rum/geo/tags.js'
import { acceptDeps, type HttpDeps, type HttpEnv } from '../deps.js'
import { clientOf } from '../access/client.js'
import { emptyAnswer } from '../access/cors.js'
import { parseWriteOptions, type WriteOptions } from '../write-options.js'
import type { Category } from '../../../shared/category.js'
import type { DecodeOk, DecodeTask } from '../../../ingest/protocol.js'

/** The request's RUM settings; the client address travels as its geo tags. */
async function rumTask(c: Context<HttpEnv>, deps: HttpDeps): Promise<RumTask | undefined> {
  if (!deps.rum) return undefined
  await deps.rum.geo?.ready()
  const cfg = deps.config.rum
  const socket = c.env?.incoming?.socket?.remoteAddress ?? ''
  const ip = clientIp((n) => c.req.header(n), cfg.origin_ip_header, socket)
  return {
    geoTags: deps.rum.geo ? deps.rum.geo.tags(ip) : [],
    appIds: cfg.app_id_white_list,
    measurements: cfg.measurements,
  }
}
/**
 * The query of a request URL, as `new URL(url).searchParams` reads it, without parsing the
 * whole URL per write (the query string is what URLSearchParams decodes either way).
 */
export function queryOf(url: string): URLSearchParams {
  const q = url.indexOf('?')
  if (q < 0) return new URLSearchParams()
  const hash = url.indexOf('#', q)
  return new URLSearchParams(url.slice(q + 1, hash < 0 ? undefined : hash))
}

/** Undeclared lengths reserve this much up front and the rest once read. */
const UNDECLARED = 1024 * 1024

/**
 * Reads the body within its limit and within the agent's budget of body bytes in memory
 * (`max_body_bytes_in_flight`): a declared length is reserved before reading, so a burst of
 * large bodies is refused (503) instead of held.
 */
export async function budgetedBody(
  incoming: IncomingMessage | undefined,
  req: Request,
  deps: HttpDeps,
  releases: (() => void)[],
  limit = deps.config.http_api.max_body_size,
): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? NaN)
  const known = Number.isSafeInteger(declared) && declared >= 0 && declared <= limit
  releases.push(deps.access.inFlight.reserve(known ? declared : UNDECLARED))
  const body = await readBody(incoming, req, limit, deps.bodyPool ?? null)
  if (!known && body.length > UNDECLARED)
    releases.push(deps.access.inFlight.reserve(body.length - UNDECLARED))
  return body
}

/** The decode task of a write: the body, the request's options and the agent's limits. */
function writeTask(
  c: Context<HttpEnv>,
  deps: HttpDeps,
  w: { category: Category; opts: WriteOptions; body: Uint8Array; rum: RumTask | undefined },
): DecodeTask {
  const { category, opts, body } = w
  return {
    body,
    category,
    contentType: c.req.header('content-type') ?? '',
    encoding: opts.encoding,
    precision: opts.precision,
    strict: opts.strict,
    echo: opts.echo,
    now: BigInt(Date.now()) * 1_000_000n,
    extraTags: deps.tags.forWrite({
      ignoreHost: opts.ignoreGlobalHostTags,
      election: opts.globalElectionTags,
    }),
    maxBodyBytes: deps.config.http_api.max_body_size,
    maxPoints: deps.config.http_api.max_points_per_request,
    pipeline: deps.pipeline ? { version: deps.pipeline.version(), source: opts.source } : null,
    rum: w.rum,
    client: clientOf(c, deps.access.trusted).ip,
  }
}

/** Counts the accepted write and answers it: 200, with the echo when one was asked for. */
function answer(
  c: Context<HttpEnv>,
  deps: HttpDeps,
  category: Category,
  opts: WriteOptions,
  out: DecodeOk,
) {
  deps.rum?.events.sourceMaps(out.sourcemaps)
  deps.rum?.events.cdn(out.cdn)
  deps.events.writeAccepted({
    category,
    input: opts.input,
    points: out.points,
    warnings: out.warnings,
    dry: opts.dry,
  })
  return out.echo === null ? emptyAnswer(c, 200) : c.body(out.echo, 200)
}

export function writeRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  app.post('/v1/write/:category', async (c) => {
    const category = c.req.param('category')
    if (!isCategory(category))
      throw new FerryError('invalidCategory', `invalid URL "${c.req.path}"`)
    const opts = parseWriteOptions(queryOf(c.req.url), c.req.header('content-encoding'))
    const releases: (() => void)[] = []
    try {
      const body = await budgetedBody(c.env?.incoming, c.req.raw, deps, releases)
      deps.events.bodyReceived(category, body.length)
      if (body.length === 0) throw new FerryError('emptyBody')
      const rum = category === 'rum' ? await rumTask(c, deps) : undefined
      const task = writeTask(c, deps, { category, opts, body, rum })
      const out = await accept(acceptDeps(deps), task, {
        input: opts.input,
        dry: opts.dry,
        storageIndex: category === 'logging' ? (opts.storageIndex ?? undefined) : undefined,
        abandoned: () => c.get('signal')?.aborted === true,
      })
      return answer(c, deps, category, opts, out)
    } catch (e) {
      if (e instanceof FerryError) deps.events.writeRejected(category, opts.input, e)
      throw e
    } finally {
      for (const release of releases) release()
    }
  })
}
