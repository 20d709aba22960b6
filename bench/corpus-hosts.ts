/**
 * The write benchmarks' default corpus: Telegraf-like lines as real hosts send them. 200 hosts,
 * 11 series each (8 `cpu`, 1 `mem`, 2 `disk`: 2,200 series, so 73% / 9% / 18% of the points),
 * every point with 8 tags and 10 fields: 6 floats, 2 integers (`i`), one quoted string (now and
 * then with escaped quotes) and one bool; some tag values hold escaped spaces; nanosecond
 * timestamps; about 318 bytes a point. Seeded: the same seed gives the same bytes.
 *
 * Metric string fields are dropped by the agent (spec 8 rule 2) with a warning per field, so a
 * point keeps 9 fields; that is what real Telegraf data costs the write path.
 */
const HOSTS = 200
const SERIES_PER_HOST = 11
export const SERIES = HOSTS * SERIES_PER_HOST
/**
 * Samples vmagent and VictoriaMetrics keep per point: every field, a quoted string as its
 * best-effort number (their influx parser), so 10.
 */
export const PEER_SAMPLES_PER_POINT = 10
/** A field every point of each measurement has: counting it counts the stored points. */
export const COUNTED_FIELDS: readonly (readonly [string, string])[] = [
  ['cpu', 'usage_idle'],
  ['mem', 'used_percent'],
  ['disk', 'used_percent'],
]

/** mulberry32: a small seeded generator, enough for benchmark data. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const REGIONS = ['eu-west-1', 'us-east-2', 'ap-southeast-1', 'cn-hangzhou']
const SERVICES = ['checkout', 'payments', 'search\\ api', 'billing', 'auth\\ gateway']
const GOVERNORS = ['powersave', 'performance', 'schedutil', 'power\\"save\\"']
const DEVICES: [string, string, string][] = [
  ['nvme0n1p1', '/', 'ext4'],
  ['nvme1n1', '/var/lib/docker', 'xfs'],
]

function hostTags(h: number): string {
  const region = REGIONS[h % REGIONS.length]
  const host = `ip-10-0-${h >> 6}-${h & 63}`
  return `host=${host},region=${region},az=${region}${'abc'[h % 3]},service=${SERVICES[h % SERVICES.length]}`
}

const f2 = (v: number) => v.toFixed(2)

function cpuLine(h: number, c: number, r: () => number, t: bigint): string {
  const cpu = c === 7 ? 'cpu-total' : `cpu${c}`
  const idle = 40 + r() * 59
  const user = (100 - idle) * 0.7
  const tags = `cpu=${cpu},${hostTags(h)},env=prod,os=linux,arch=x86_64`
  const fields =
    `usage_user=${f2(user)},usage_system=${f2((100 - idle) * 0.25)},usage_idle=${f2(idle)},` +
    `usage_iowait=${f2(r() * 2)},usage_irq=${f2(r() * 0.1)},usage_steal=${f2(r() * 0.5)},` +
    `frequency_mhz=${2000 + Math.floor(r() * 1500)}i,ctx_switches=${Math.floor(r() * 9e6)}i,` +
    `governor="${GOVERNORS[(h + c) % GOVERNORS.length]}",online=${r() < 0.98}`
  return `cpu,${tags} ${fields} ${t}`
}

function memLine(h: number, r: () => number, t: bigint): string {
  const total = 16 * 2 ** 30
  const used = Math.floor(total * (0.3 + r() * 0.6))
  const tags = `${hostTags(h)},env=prod,os=linux,arch=x86_64,kind=physical`
  const fields =
    `used_percent=${f2((used / total) * 100)},available_percent=${f2(100 - (used / total) * 100)},` +
    `cached_percent=${f2(r() * 20)},buffered_percent=${f2(r() * 5)},swap_percent=${f2(r() * 3)},` +
    `dirty_percent=${f2(r() * 0.2)},total=${total}i,used=${used}i,` +
    `state="${r() < 0.05 ? 'under \\"pressure\\"' : 'normal'}",swap_on=${r() < 0.5}`
  return `mem,${tags} ${fields} ${t}`
}

function diskLine(h: number, d: number, r: () => number, t: bigint): string {
  const [device, path, fstype] = DEVICES[d]
  const label = d === 0 ? 'System\\ Disk' : 'Data\\ Volume'
  const tags = `device=${device},path=${path},fstype=${fstype},label=${label},${hostTags(h)}`
  const used = 20 + r() * 70
  const fields =
    `used_percent=${f2(used)},free_percent=${f2(100 - used)},inodes_used_percent=${f2(r() * 30)},` +
    `read_mb_s=${f2(r() * 80)},write_mb_s=${f2(r() * 60)},io_util=${f2(r() * 100)},` +
    `total=${500 * 2 ** 30}i,inodes_free=${Math.floor(1e6 + r() * 3e7)}i,` +
    `mode="${d === 0 ? 'rw' : 'rw,noatime'}",readonly=false`
  return `disk,${tags} ${fields} ${t}`
}

/** The line of series `s` (0 .. SERIES-1) at time `t`. */
function seriesLine(s: number, r: () => number, t: bigint): string {
  const h = Math.floor(s / SERIES_PER_HOST)
  const k = s % SERIES_PER_HOST
  if (k < 8) return cpuLine(h, k, r, t)
  if (k === 8) return memLine(h, r, t)
  return diskLine(h, k - 9, r, t)
}

/** The corpus's first timestamp (Nov 2023), in ms: queries of what was stored start here. */
export const HOST_CORPUS_EPOCH_MS = 1_700_000_000_000

/**
 * `points` lines in series order, starting at series `seed % SERIES`; every full round of the
 * series moves the time on by 10 s, as hosts reporting every 10 s would.
 */
export function makeHostBody(points: number, seed = 1): string {
  const r = seeded(seed)
  const start = BigInt(HOST_CORPUS_EPOCH_MS) * 1_000_000n + BigInt(seed) * 10_000_000_000n
  const lines: string[] = []
  for (let i = 0; i < points; i++) {
    const s = (seed + i) % SERIES
    const round = Math.floor((seed + i) / SERIES)
    const t = start + BigInt(round) * 10_000_000_000n + BigInt(Math.floor(r() * 1e6))
    lines.push(seriesLine(s, r, t))
  }
  return lines.join('\n')
}
