/**
 * `POST /v1/write/:category` (spec 4.1): the category is checked before the body is read; the
 * body goes to a decode worker; accepted points go to the buffer, and only then the 200.
 */
import type { Hono } from 'hono'
import { FerryError } from '../../../errors.js'
import { isCategory } from '../../../shared/category.js'
import { readBody } from '../../../http/body.js'
import type { Context } from 'hono'
import type { RumTask } from '../../../ingest/rum.js'
import { clientIp } from '../../../rum/geo/tags.js'
import type { HttpDeps, HttpEnv } from '../deps.js'

/** The request's RUM settings; the client address travels as its geo tags. */
function rumTask(c: Context<HttpEnv>, deps: HttpDeps): RumTask | undefined {
  if (!deps.rum) return undefined
  const cfg = deps.config.rum
  const socket = c.env?.incoming?.socket?.remoteAddress ?? ''
  const ip = clientIp((n) => c.req.header(n), cfg.origin_ip_header, socket)
  return {
    geoTags: deps.rum.geo ? deps.rum.geo.tags(ip) : [],
    appIds: cfg.app_id_white_list,
    measurements: cfg.measurements,
  }
}
import { parseWriteOptions } from '../write-options.js'

export function writeRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  app.post('/v1/write/:category', async (c) => {
    const category = c.req.param('category')
    if (!isCategory(category))
      throw new FerryError('invalidCategory', `invalid URL "${c.req.path}"`)
    const url = new URL(c.req.url)
    const opts = parseWriteOptions(url.searchParams, c.req.header('content-encoding'))
    try {
      const body = await readBody(c.env?.incoming, c.req.raw, deps.config.http_api.max_body_size)
      deps.events.bodyReceived(category, body.length)
      if (body.length === 0) throw new FerryError('emptyBody')
      const out = await deps.decoder.decode({
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
        rum: category === 'rum' ? rumTask(c, deps) : undefined,
      })
      deps.rum?.events.sourceMaps(out.sourcemaps)
      for (const s of out.pipeline) deps.pipelineEvents?.ran(category, s)
      // Answered 408 already: keep nothing, so that the client's retry is not a duplicate.
      if (c.get('signal')?.aborted)
        throw new FerryError('requestTimeout', 'timed out before storing')
      if (!opts.dry && out.points > 0) {
        const storageIndex = category === 'logging' ? (opts.storageIndex ?? undefined) : undefined
        await deps.buffer.push({
          category,
          payload: out.payload,
          points: out.points,
          input: opts.input,
          storageIndex,
          receivedAt: Date.now(),
        })
      }
      deps.events.writeAccepted({
        category,
        input: opts.input,
        points: out.points,
        warnings: out.warnings,
        dry: opts.dry,
      })
      return out.echo === null ? c.body(null, 200) : c.body(out.echo, 200)
    } catch (e) {
      if (e instanceof FerryError) deps.events.writeRejected(category, opts.input, e)
      throw e
    }
  })
}
