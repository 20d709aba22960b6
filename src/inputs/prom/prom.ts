/**
 * `prom`: scrapes Prometheus text / OpenMetrics endpoints, with the reference agent's config
 * keys. Each URL is scraped on its own: a failing target is an input error for that target
 * (counted, in the monitor) while the others' points still go out.
 */
import fs from 'node:fs'
import { FerryError } from '../../errors.js'
import type { Point } from '../../shared/point.js'
import { defineInput, type CollectContext, type InputEnv, type PolledInput } from '../input.js'
import { toPoints, type MapOptions } from './map.js'
import { parseExposition } from './parse.js'
import { PROM_SCHEMA, type PromConf } from './schema.js'
import { scrape, tlsFiles, type ScrapeOptions } from './scrape.js'

function mapOptions(c: PromConf): Omit<MapOptions, 'extraTags'> {
  const rename = c.tags_rename as {
    overwrite_exist_tags?: boolean
    mapping?: Record<string, string>
  }
  return {
    metricTypes: c.metric_types,
    metricNameFilter: c.metric_name_filter.map((r) => new RegExp(r)),
    metricNameFilterIgnore: c.metric_name_filter_ignore.map((r) => new RegExp(r)),
    measurementPrefix: c.measurement_prefix,
    measurementName: c.measurement_name,
    keepExistMetricName: c.keep_exist_metric_name,
    honorTimestamps: c.honor_timestamps,
    tagsIgnore: c.tags_ignore,
    tagsRename: { mapping: rename.mapping ?? {}, overwrite: rename.overwrite_exist_tags ?? false },
    disableInfoTag: c.disable_info_tag,
  }
}

/** The `Authorization` header of `[inputs.prom.auth]` (bearer token, inline or from a file). */
function authHeaders(
  auth: Record<string, string>,
  readFile: (p: string) => string,
): Record<string, string> {
  if (auth.type !== 'bearer_token') return {}
  const token = auth.token || (auth.token_file ? readFile(auth.token_file).replace(/\n/g, '') : '')
  return token ? { authorization: `Bearer ${token}` } : {}
}

export class Prom implements PolledInput {
  readonly kind = 'polled'
  readonly category = 'metric'
  readonly interval: number
  private readonly map: Omit<MapOptions, 'extraTags'>

  constructor(
    private readonly c: PromConf,
    private readonly env: Pick<InputEnv, 'events'>,
    private readonly readFile: (p: string) => string,
  ) {
    this.interval = c.interval
    this.map = mapOptions(c)
  }

  private scrapeOptions(): ScrapeOptions {
    const tls = tlsFiles({
      ca: [...this.c.ca_certs, ...(this.c.tls_ca ? [this.c.tls_ca] : [])],
      cert: this.c.cert || this.c.tls_cert,
      key: this.c.cert_key || this.c.tls_key,
      caB64: this.c.ca_certs_base64,
      certB64: this.c.cert_base64,
      keyB64: this.c.cert_key_base64,
    })
    return {
      timeout: this.c.timeout,
      maxBytes: this.c.max_body_size,
      headers: { ...this.c.http_headers, ...authHeaders(this.c.auth, this.readFile) },
      tls: { ...tls, insecure: this.c.insecure_skip_verify, serverName: this.c.server_name },
    }
  }

  async scrapeOne(url: string, ctx: CollectContext): Promise<Point[]> {
    const body = await scrape(url, this.scrapeOptions(), ctx.signal)
    const openMetrics = body.contentType.startsWith('application/openmetrics-text')
    let parsed
    try {
      parsed = parseExposition(body.text, { openMetrics, maxSeries: this.c.max_series })
    } catch (e) {
      throw new FerryError('invalidExposition', `${url}: ${(e as Error).message}`)
    }
    if (parsed.cut > 0)
      this.env.events.failed(
        'prom',
        new FerryError('tooManyPoints', `${url}: ${parsed.cut} series over max_series cut`),
      )
    const instance: [string, string][] = this.c.disable_instance_tag
      ? []
      : [['instance', new URL(url).host]]
    return toPoints(parsed.families, ctx.now, { ...this.map, extraTags: instance })
  }

  async collect(ctx: CollectContext): Promise<Point[]> {
    const out: Point[] = []
    for (const url of this.c.urls) {
      try {
        out.push(...(await this.scrapeOne(url, ctx)))
      } catch (e) {
        if (this.c.ignore_req_err && !(e instanceof FerryError && e.code === 'invalidExposition'))
          continue
        const err = e instanceof FerryError ? e : new FerryError('collectFailed', String(e))
        this.env.events.failed('prom', err)
      }
    }
    return out
  }
}

export const promInput = defineInput({
  name: 'prom',
  schema: PROM_SCHEMA,
  create: (c, env) => new Prom(c, env, (p) => fs.readFileSync(p, 'utf8')),
})
