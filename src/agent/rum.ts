/** Builds the RUM parts from the config: resolver, GeoIP tagger, replay queue and forwarder. */
import path from 'node:path'
import type { Config } from '../config/schema.js'
import type { Identity } from '../identity.js'
import { ReplayForwarder } from '../rum/replay/forwarder.js'
import { ReplayQueue } from '../rum/replay/queue.js'
import type { PoolOptions } from '../ingest/pool.js'
import { callsGeoip, type PipelineWatcher } from '../pipeline/watcher.js'
import { IpDb } from '../rum/geo/ipdb.js'
import { GeoTagger } from '../rum/geo/tags.js'
import { SourceMapResolver, type ResolverOptions } from '../rum/sourcemap/resolver.js'
import type { RumWorkerOptions } from '../rum/stage.js'
import { configured, nativeResolver, type SymbolTools } from '../rum/symbols/native.js'
import { userAgent } from '../sinks/dataway/send.js'
import { upstreamFetch } from '../sinks/dataway/network.js'
import type { Upstream } from '../sinks/dataway/upstream.js'
import type { RumDeps } from '../sources/http/deps.js'
import type { RumEvents } from '../telemetry/rum-events.js'

/** The RUM options every decode worker builds its stage from (see rum/stage.ts). */
export function rumWorkerOptions(cfg: Config): RumWorkerOptions {
  const r = cfg.rum
  const cdn = r.cdn_mark
    ? {
        cdnMap: r.cdn_map,
        waitMs: r.cdn_lookup_wait,
        timeoutMs: r.cdn_lookup_timeout,
        concurrency: r.cdn_lookup_concurrency,
        cacheSize: CDN_CACHE_SIZE,
        ttlMs: CDN_TTL_MS,
      }
    : null
  return { resolver: resolverOptions(cfg), cdn, symbols: symbolTools(cfg) }
}

export function symbolTools(cfg: Config): SymbolTools | null {
  const r = cfg.rum
  const t = {
    androidCmdlineHome: r.android_cmdline_home,
    proguardHome: r.proguard_home,
    ndkHome: r.ndk_home,
    atosBinPath: r.atos_bin_path,
    timeoutMs: r.symbol_tool_timeout,
    concurrency: r.symbol_tool_concurrency,
    zip: { maxBytes: r.symbol_zip_max_size, maxEntries: r.zip_max_entries },
  }
  return configured(t) ? t : null
}

export function resolverOptions(cfg: Config): ResolverOptions {
  return {
    root: path.resolve(cfg.agent.data_dir, 'rum'),
    maxZips: cfg.rum.sourcemap_cache_zips,
    maxBytes: cfg.rum.sourcemap_cache_size,
    maxEntries: cfg.rum.sourcemap_cache_entries,
    zipBytes: cfg.rum.zip_max_size,
    zipEntries: cfg.rum.zip_max_entries,
    recheckMs: cfg.rum.sourcemap_recheck,
    waitMs: cfg.rum.sourcemap_load_wait,
  }
}

/** The reference's CNAME cache: 16,384 hosts for 7 days. */
const CDN_CACHE_SIZE = 16_384
const CDN_TTL_MS = 7 * 24 * 3600_000

export function createRum(
  cfg: Config,
  id: Identity,
  upstream: () => Upstream | null,
  events: RumEvents,
): { deps: RumDeps; forwarder: ReplayForwarder } {
  const opts = resolverOptions(cfg)
  const replay = new ReplayQueue(path.join(opts.root, 'replay'), cfg.rum.replay_queue_size)
  const target = {
    url: () => {
      const up = upstream()
      return up ? `${up.origin}/v1/write/rum/replay${up.query ? `?${up.query}` : ''}` : null
    },
    userAgent: userAgent(id.version, id.host),
    timeoutMs: 75_000,
    // Through the upstream's proxy and TLS settings, as every other upstream call.
    fetch: (url: string, init: RequestInit) => {
      const up = upstream()
      return up ? upstreamFetch(up, url, init) : fetch(url, init)
    },
  }
  const forwarder = new ReplayForwarder(replay, target, (o, detail) => events.replay(o, detail))
  const geo = cfg.rum.geoip ? new GeoTagger(IpDb.instance()) : null
  const tools = symbolTools(cfg)
  const native = tools ? nativeResolver(tools) : undefined
  const resolver = new SourceMapResolver({ ...opts, maxZips: 4, native })
  return { deps: { root: opts.root, geo, resolver, replay, events }, forwarder }
}

/**
 * The IP database for scripts calling `geoip()`: loaded on this thread by the first task whose
 * pipeline (or debug script) needs it, then shared with the workers task by task.
 */
export function scriptGeo(watcher: () => PipelineWatcher | null): PoolOptions['geo'] {
  return {
    wanted: (task) =>
      'kind' in task
        ? Object.values(task.pipeline).some((byName) =>
            Object.values(byName).some((b64) => callsGeoip(Buffer.from(b64, 'base64').toString())),
          )
        : task.pipeline !== null && (watcher()?.usesGeoip() ?? false),
    get: async () => {
      const db = IpDb.instance()
      await db.load()
      return db.shared()
    },
  }
}
