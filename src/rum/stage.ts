/**
 * What the decode workers need for RUM, built in each worker from plain options (they cross
 * the thread boundary as `workerData`): the source map resolver and, when on, the CDN marker
 * with the system's DNS resolver. Tests build a stage with a fake resolver instead.
 */
import { Resolver } from 'node:dns/promises'
import { CdnMarker } from './cdn/marker.js'
import { CdnTable } from './cdn/table.js'
import type { CnameResolver } from './cdn/lookup.js'
import { SourceMapResolver, type ResolverOptions } from './sourcemap/resolver.js'
import { nativeResolver, type SymbolTools } from './symbols/native.js'

export interface CdnOptions {
  /** The `cdn_map` JSON; '' for the built-in table. */
  cdnMap: string
  waitMs: number
  timeoutMs: number
  concurrency: number
  cacheSize: number
  ttlMs: number
}

export interface RumWorkerOptions {
  resolver: ResolverOptions
  /** Null when CDN marking is off. */
  cdn: CdnOptions | null
  /** Android and iOS symbol tools; null when none is configured (stacks count `no-tool`). */
  symbols: SymbolTools | null
}

export interface RumStage {
  resolver: SourceMapResolver
  cdn: CdnMarker | null
}

/** CNAME lookups through the system's DNS servers, each query bounded by the timeout. */
export function systemCnameResolver(timeoutMs: number): CnameResolver {
  const dns = new Resolver({ timeout: Math.max(1, Math.round(timeoutMs / 2)), tries: 2 })
  return (host) => dns.resolveCname(host)
}

export function createCdnMarker(o: CdnOptions, resolve: CnameResolver): CdnMarker {
  return new CdnMarker({
    resolve,
    table: CdnTable.fromConfig(o.cdnMap),
    waitMs: o.waitMs,
    timeoutMs: o.timeoutMs,
    concurrency: o.concurrency,
    cacheSize: o.cacheSize,
    ttlMs: o.ttlMs,
  })
}

export function createRumStage(o: RumWorkerOptions, resolve?: CnameResolver): RumStage {
  return {
    resolver: new SourceMapResolver({
      ...o.resolver,
      native: o.symbols ? nativeResolver(o.symbols) : undefined,
    }),
    cdn: o.cdn ? createCdnMarker(o.cdn, resolve ?? systemCnameResolver(o.cdn.timeoutMs)) : null,
  }
}
