/**
 * The RUM stage of a decode task: whitelists (a refusal fails the whole write, as in the
 * reference), the request's geo tags where absent, and `error_stack_source_base64` on error
 * points. Resolution runs here, in the decode worker: a cold zip costs milliseconds of parsing
 * that must not stall the HTTP thread, and the lanes keep other writes moving meanwhile.
 */
import { FerryError } from '../errors.js'
import { hasKey, Kind, type Point } from '../shared/point.js'
import type { SourceMapResolver, SourceMapStatus } from '../rum/sourcemap/resolver.js'

export interface RumTask {
  /** Geo tags of the client address, computed once per request on the HTTP thread. */
  geoTags: [string, string][]
  appIds: string[]
  measurements: string[]
}

export interface SourceMapStat {
  appId: string
  sdkName: string
  status: SourceMapStatus
  seconds: number
  /** The zip this resolution found over its budget (once per zip, not per point). */
  refused?: { zip: string; reason: string }
}

function str(p: Point, key: string): string {
  const t = p.tags.find((x) => x.key === key)
  if (t) return t.value
  const f = p.fields.find((x) => x.key === key)
  return f && f.kind === Kind.STRING ? String(f.value) : ''
}

export function checkRum(points: Point[], t: RumTask): void {
  for (const p of points) {
    if (t.measurements.length && !t.measurements.includes(p.name))
      throw new FerryError('unknownRumMeasurement', `unknown RUM measurement: ${p.name}`)
    if (t.appIds.length && !t.appIds.includes(str(p, 'app_id')))
      throw new FerryError(
        'rumAppIdNotInWhiteList',
        `app_id "${str(p, 'app_id')}" is not in the white list`,
      )
  }
}

/** One pass over a point's keys marks which of the (six) tags it has; the rest are added. */
export function addGeoTags(points: Point[], tags: [string, string][]): void {
  if (tags.length === 0) return
  const index = new Map(tags.map(([k], i) => [k, i]))
  const present = new Uint8Array(tags.length)
  for (const p of points) {
    present.fill(0)
    for (const t of p.tags) {
      const i = index.get(t.key)
      if (i !== undefined) present[i] = 1
    }
    for (const f of p.fields) {
      const i = index.get(f.key)
      if (i !== undefined) present[i] = 1
    }
    for (let i = 0; i < tags.length; i++)
      if (!present[i]) p.tags.push({ key: tags[i][0], value: tags[i][1] })
  }
}

export async function resolveStacks(
  points: Point[],
  resolver: SourceMapResolver,
): Promise<SourceMapStat[]> {
  const stats: SourceMapStat[] = []
  for (const p of points) {
    if (p.name !== 'error') continue
    const started = performance.now()
    const input = {
      stack: str(p, 'error_stack'),
      appId: str(p, 'app_id'),
      env: str(p, 'env'),
      version: str(p, 'version'),
      sdkName: str(p, 'sdk_name'),
      errorType: str(p, 'error_type'),
    }
    const r = await resolver.resolve(input)
    if (r.mapped !== null && !hasKey(p, 'error_stack_source_base64'))
      p.fields.push({
        key: 'error_stack_source_base64',
        kind: Kind.STRING,
        value: Buffer.from(r.mapped).toString('base64'),
      })
    const seconds = (performance.now() - started) / 1000
    const { appId, sdkName } = input
    stats.push({ appId, sdkName, status: r.status, seconds, refused: r.refused })
  }
  return stats
}
