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
  static of(starts: Uint32Array, ends: Uint32Array, names: Uint32Array, strings: string[]) {
    return new AsnTable(starts, ends, names, strings)
  }

  private constructor(
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
    private readonly names: Uint32Array,
    private readonly strings: string[],
  ) {}

  /**
   * Builds the table in slices of `slice` lines with the event loop free between them: the
   * table has half a million rows, and building it in one go would stall every request for
   * seconds.
   */
  static async parseInSlices(csv: string, slice = 20_000): Promise<AsnTable> {
    const b = new AsnBuilder(csv)
    while (!b.step(slice)) await new Promise((r) => setImmediate(r))
    return b.table()
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

/** Builds the table a slice of lines at a time. */
class AsnBuilder {
  private readonly lines: string[]
  private readonly starts: Uint32Array
  private readonly ends: Uint32Array
  private readonly names: Uint32Array
  private readonly strings: string[] = []
  private readonly index = new Map<string, number>()
  private at = 0
  private n = 0

  constructor(csv: string) {
    this.lines = csv.split('\n')
    this.starts = new Uint32Array(this.lines.length)
    this.ends = new Uint32Array(this.lines.length)
    this.names = new Uint32Array(this.lines.length)
  }

  /** Reads up to `count` lines; true when all are read. */
  step(count: number): boolean {
    const stop = Math.min(this.lines.length, this.at + count)
    for (; this.at < stop; this.at++) {
      const m = /^(\d+),(\d+),(\d+),(.*)$/.exec(this.lines[this.at])
      if (!m) continue
      const asn = Number(m[3])
      const name = CARRIERS.get(asn) ?? m[4].replace(/^"(.*)"$/, '$1').replaceAll('""', '"')
      let id = this.index.get(name)
      if (id === undefined) this.index.set(name, (id = this.strings.push(name) - 1))
      this.starts[this.n] = Number(m[1])
      this.ends[this.n] = Number(m[2])
      this.names[this.n++] = id
    }
    return this.at >= this.lines.length
  }

  table(): AsnTable {
    const n = this.n
    return AsnTable.of(
      this.starts.slice(0, n),
      this.ends.slice(0, n),
      this.names.slice(0, n),
      this.strings,
    )
  }
}
