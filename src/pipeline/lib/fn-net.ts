/**
 * Network functions: `cidr(ip, prefix)`, true when the address is inside the CIDR prefix (as
 * the reference's `cidr`); prefixes are parsed once into a BlockList and kept (bounded).
 * `geoip(ip)` sets `city`, `province`, `country` and `isp` from the address in key `ip` (as the
 * reference: a missing key or no database adds nothing; what the database lacks is
 * `unknown`), read from this thread's view of the one shared database (rum/geo/ipdb.ts).
 */
import net from 'node:net'
import { IpDb } from '../../rum/geo/ipdb.js'
import type { LibFn } from './lib-fn.js'
import { keyArg, strArg } from './context.js'
import { setKey, type PlPoint } from './pl-point.js'

const lists = new Map<string, net.BlockList | null>()
const MAX_LISTS = 1000

function listOf(prefix: string): net.BlockList | null {
  let list = lists.get(prefix)
  if (list !== undefined) return list
  const [addr, bits, extra] = prefix.split('/')
  const family = net.isIP(addr)
  const max = family === 4 ? 32 : 128
  const n = Number(bits)
  list = null
  if (family && extra === undefined && /^\d+$/.test(bits ?? '') && n <= max) {
    list = new net.BlockList()
    list.addSubnet(addr, n, family === 4 ? 'ipv4' : 'ipv6')
  }
  if (lists.size >= MAX_LISTS) lists.clear()
  lists.set(prefix, list)
  return list
}

const UNKNOWN = { city: 'unknown', province: 'unknown', country: 'unknown', isp: 'unknown' }

function geoip(p: PlPoint, a: unknown[]): void {
  const ip = strArg(p, { $k: keyArg(a[0], 'geoip') })
  const db = IpDb.current()
  if (ip === null || !db?.ready) return
  const geo = db.lookup(ip.trim()) ?? UNKNOWN
  setKey(p, 'city', geo.city)
  setKey(p, 'province', geo.province)
  setKey(p, 'country', geo.country)
  setKey(p, 'isp', geo.isp)
}

export const NET_FNS: Record<string, LibFn> = {
  geoip: { params: ['ip'], run: (_c, p, a) => geoip(p, a) },
  cidr: {
    params: ['ip', 'prefix'],
    run: (_c, p, a) => {
      const ip = strArg(p, a[0]) ?? ''
      const list = listOf(strArg(p, a[1]) ?? '')
      const family = net.isIP(ip)
      return Boolean(list && family && list.check(ip, family === 4 ? 'ipv4' : 'ipv6'))
    },
  },
}
