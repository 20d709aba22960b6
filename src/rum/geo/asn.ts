/**
 * IPv4 ranges to ISP names from the `@ip-location-db/asn` CSV (`start,end,asn,org`, numeric
 * addresses, sorted): three typed arrays and a binary search, about 0.3 µs a lookup. The
 * three large Chinese carriers get the names the reference's `ip2isp` table gives them.
 */
const CARRIERS = new Map<number, string>([
  [4134, '中国电信'],
  [4812, '中国电信'],
  [4809, '中国电信'],
  [9808, '中国移动'],
  [56040, '中国移动'],
  [56041, '中国移动'],
  [4837, '中国联通'],
  [17621, '中国联通'],
  [9929, '中国联通'],
])

export class AsnTable {
  private constructor(
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
    private readonly names: Uint32Array,
    private readonly strings: string[],
  ) {}

  static parse(csv: string): AsnTable {
    const lines = csv.split('\n')
    const starts = new Uint32Array(lines.length)
    const ends = new Uint32Array(lines.length)
    const names = new Uint32Array(lines.length)
    const strings: string[] = []
    const index = new Map<string, number>()
    let n = 0
    for (const line of lines) {
      const m = /^(\d+),(\d+),(\d+),(.*)$/.exec(line)
      if (!m) continue
      const asn = Number(m[3])
      const name = CARRIERS.get(asn) ?? m[4].replace(/^"(.*)"$/, '$1').replaceAll('""', '"')
      let at = index.get(name)
      if (at === undefined) index.set(name, (at = strings.push(name) - 1))
      starts[n] = Number(m[1])
      ends[n] = Number(m[2])
      names[n++] = at
    }
    return new AsnTable(starts.slice(0, n), ends.slice(0, n), names.slice(0, n), strings)
  }

  /** The ISP of a numeric IPv4 address, or null. */
  lookup(ip: number): string | null {
    let lo = 0
    let hi = this.starts.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      if (this.starts[mid] > ip) hi = mid - 1
      else if (this.ends[mid] < ip) lo = mid + 1
      else return this.strings[this.names[mid]]
    }
    return null
  }
}

export function ipv4Number(ip: string): number {
  const [a, b, c, d] = ip.split('.').map(Number)
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d
}
