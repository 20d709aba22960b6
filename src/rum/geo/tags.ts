/**
 * The geo tags of one client address, as the reference adds them to RUM points: `ip`,
 * `city`, `province`, `country`, `isp` ("unknown" where the database has nothing) and
 * `ip_status` (`illegal`, `private` for loopback and RFC 1918 / unique-local addresses,
 * `public`). Cached by address: a browser sends many writes from one address.
 */
import { BlockList, isIP } from 'node:net'
import { LruMap } from '../../shared/lru.js'
import type { IpDb } from './ipdb.js'

export type IpStatus = 'illegal' | 'private' | 'public'

const PRIVATE = new BlockList()
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4')
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4')
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4')
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4')
PRIVATE.addAddress('::1', 'ipv6')
PRIVATE.addSubnet('fc00::', 7, 'ipv6')

export function ipStatus(ip: string): IpStatus {
  const family = isIP(ip)
  if (family === 0) return 'illegal'
  return PRIVATE.check(ip, family === 4 ? 'ipv4' : 'ipv6') ? 'private' : 'public'
}

const UNKNOWN = { city: 'unknown', province: 'unknown', country: 'unknown', isp: 'unknown' }

export class GeoTagger {
  private readonly cache = new LruMap<string, [string, string][]>(16_384)

  constructor(private readonly db: IpDb | null) {}

  /** Resolves once the database is loaded (the first call starts it; see IpDb.load). */
  ready(): Promise<void> {
    return this.db ? this.db.load() : Promise.resolve()
  }

  tags(ip: string): [string, string][] {
    const hit = this.cache.get(ip)
    if (hit) return hit
    const status = ipStatus(ip)
    const geo = (status === 'public' && this.db?.lookup(ip)) || UNKNOWN
    const tags: [string, string][] = [
      ['ip', ip],
      ['city', geo.city],
      ['province', geo.province],
      ['country', geo.country],
      ['isp', geo.isp],
      ['ip_status', status],
    ]
    this.cache.set(ip, tags)
    return tags
  }
}

/**
 * The client address: the first element of `header` (default X-Forwarded-For), then
 * X-Real-IP, then the socket's; IPv4-mapped IPv6 is written as IPv4.
 */
export function clientIp(
  get: (name: string) => string | undefined,
  header: string,
  socket: string,
): string {
  const pick = (v: string | undefined) => v?.split(',')[0].trim() || ''
  const ip = pick(get(header || 'X-Forwarded-For')) || pick(get('X-Real-IP')) || socket
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip
}
