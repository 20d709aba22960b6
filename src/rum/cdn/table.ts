/**
 * Which provider a CNAME target belongs to: the longest DNS zone of the table that the name
 * ends in (so `x.ccgslb.com.cn` and `x.azurewebsites.windows.net` find their deeper zones, and
 * the reference's second-level-domain lookup is the common case), then the patterns. The
 * user's `cdn_map` (the reference's JSON: `[{"domain", "name", "website"}]`) replaces the
 * built-in table, as in the reference; a `*` in a domain makes it a pattern.
 */
import { FerryError } from '../../errors.js'
import { CDN_PATTERNS, CDN_PROVIDERS } from './list.js'

export class CdnTable {
  private readonly zones = new Map<string, string>()
  private readonly patterns: [RegExp, string][] = []

  private constructor(zones: Iterable<[string, string]>, patterns: Iterable<[string, string]>) {
    for (const [zone, name] of zones) this.zones.set(normalise(zone), name)
    for (const [glob, name] of patterns) this.patterns.push([globRegExp(glob), name])
  }

  static builtIn(): CdnTable {
    const zones = CDN_PROVIDERS.flatMap(([name, list]) =>
      list.split(' ').map((z): [string, string] => [z, name]),
    )
    return new CdnTable(
      zones,
      CDN_PATTERNS.map(([n, g]) => [g, n]),
    )
  }

  /** The `cdn_map` JSON of the config; '' keeps the built-in table. */
  static fromConfig(cdnMap: string): CdnTable {
    if (cdnMap.trim() === '') return CdnTable.builtIn()
    let list: unknown
    try {
      list = JSON.parse(cdnMap)
    } catch (e) {
      throw new FerryError('configInvalid', `[rum] cdn_map: ${(e as Error).message}`)
    }
    if (!Array.isArray(list) || list.length === 0)
      throw new FerryError('configInvalid', '[rum] cdn_map: expected a non-empty JSON array')
    const zones: [string, string][] = []
    const patterns: [string, string][] = []
    for (const item of list as { domain?: unknown; name?: unknown }[]) {
      const domain = typeof item?.domain === 'string' ? item.domain.trim() : ''
      const name = typeof item?.name === 'string' ? item.name : ''
      if (!domain) continue
      if (domain.includes('*')) patterns.push([patternOf(domain), name])
      else zones.push([domain, name])
    }
    return new CdnTable(zones, patterns)
  }

  /** The provider name of a CNAME target, or null. */
  provider(cname: string): string | null {
    const name = normalise(cname)
    for (let at = 0; at >= 0; at = name.indexOf('.', at) + 1 || -1) {
      const hit = this.zones.get(name.slice(at))
      if (hit !== undefined) return hit
    }
    for (const [re, provider] of this.patterns) if (re.test(name)) return provider
    return null
  }
}

function normalise(name: string): string {
  return name.trim().toLowerCase().replace(/\.+$/, '')
}

/** `kunlun*.com` → `*.kunlun*.com`, `.x*.com` → `*.x*.com` (the reference's rule). */
function patternOf(domain: string): string {
  if (domain.startsWith('*')) return domain
  return domain.startsWith('.') ? `*${domain}` : `*.${domain}`
}

/** A leading `*.` stands for one or more labels; any other `*` stays within its label. */
function globRegExp(glob: string): RegExp {
  const lead = glob.startsWith('*.')
  const rest = (lead ? glob.slice(2) : glob).toLowerCase()
  const body = rest
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^.]*')
  return new RegExp(`^${lead ? '(?:[^.]+\\.)+' : ''}${body}$`)
}
