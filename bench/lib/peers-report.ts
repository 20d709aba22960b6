/**
 * The printed report of `bench:peers`: one row per (case, target), Ferry's accepted rate and
 * CPU per point as ratios to each peer per case, and the agent-weight targets marked met or not.
 */
export interface Cell {
  target: string
  caseName: string
  acceptedPerS: number
  /** Delivered (or stored) points over the run plus the drain; null when not measurable. */
  deliveredPerS: number | null
  /** Delivered by the end of the drain over accepted. */
  deliveredShare: number | null
  p50: number
  p99: number
  rssMb: number
  /** Peak anonymous RSS (sampled): RSS without mapped file pages. */
  anonMb: number
  /** CPU (user + system, all threads) of the target through load and drain, per accepted point. */
  cpuUsPerPoint: number
  non2xx: number
  extra: string
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const pad = (s: string, n: number) => s.padEnd(n)
const lpad = (s: string, n: number) => s.padStart(n)

export function printTable(cells: Cell[]): void {
  console.log(
    '\npeak RSS: VmHWM of the process (mapped file pages count: LMDB pages Ferry touched); ' +
      'anon: peak sampled RssAnon (heap and native memory only); ' +
      'CPU µs/pt: the target process alone, through load and drain',
  )
  console.log(
    `\n${pad('case', 15)}${pad('target', 18)}${lpad('accepted/s', 12)}${lpad('delivered/s', 13)}` +
      `${lpad('deliv%', 8)}${lpad('p50 ms', 9)}${lpad('p99 ms', 9)}${lpad('peak RSS', 10)}${lpad('anon', 8)}${lpad('CPU µs/pt', 11)}${lpad('non-2xx', 9)}`,
  )
  for (const c of cells) {
    const d = c.deliveredPerS === null ? '-' : fmt(c.deliveredPerS)
    const share = c.deliveredShare === null ? '-' : `${(c.deliveredShare * 100).toFixed(1)}`
    console.log(
      `${pad(c.caseName, 15)}${pad(c.target, 18)}${lpad(fmt(c.acceptedPerS), 12)}${lpad(d, 13)}` +
        `${lpad(share, 8)}${lpad(c.p50.toFixed(1), 9)}${lpad(c.p99.toFixed(1), 9)}` +
        `${lpad(`${c.rssMb.toFixed(0)} MB`, 10)}${lpad(`${c.anonMb.toFixed(0)} MB`, 8)}${lpad(c.cpuUsPerPoint.toFixed(1), 11)}${lpad(String(c.non2xx), 9)}` +
        (c.extra ? `  (${c.extra})` : ''),
    )
  }
}

export function printRatios(cells: Cell[], self: string): void {
  console.log(`\n${self} accepted points/s over each peer's, per case:`)
  for (const mine of cells.filter((c) => c.target === self)) {
    const peers = cells.filter((c) => c.caseName === mine.caseName && c.target !== self)
    if (peers.length === 0) continue
    const parts = peers.map(
      (p) =>
        `${p.target} ${(mine.acceptedPerS / p.acceptedPerS).toFixed(2)}x ` +
        `(CPU/pt ${(mine.cpuUsPerPoint / p.cpuUsPerPoint).toFixed(2)}x)`,
    )
    console.log(`  ${pad(mine.caseName, 15)}${parts.join(', ')}`)
  }
}

type Get = (target: string, caseName: string) => Cell | undefined

/** Ferry's accepted rate over a peer's in a case, or undefined when either is missing. */
function ratio(get: Get, caseName: string, peer: string): number | undefined {
  const mine = get('ferry', caseName)?.acceptedPerS
  const theirs = get(peer, caseName)?.acceptedPerS
  return mine === undefined || theirs === undefined ? undefined : mine / theirs
}

/** Ferry's highest CPU per point over vmagent's, case by case (undefined without vmagent). */
function cpuRatio(cells: Cell[], get: Get): number | undefined {
  const rs = cells
    .filter((c) => c.target === 'ferry')
    .map((c) => c.cpuUsPerPoint / (get('vmagent', c.caseName)?.cpuUsPerPoint ?? NaN))
    .filter((r) => Number.isFinite(r))
  return rs.length ? Math.max(...rs) : undefined
}

/** The agent-weight targets for the 2-core machine; `fast` is the transcoder's share per case. */
export function printTargets(cells: Cell[], fast: Map<string, number>): void {
  const get: Get = (t, c) => cells.find((x) => x.target === t && x.caseName === c)
  const ferry = cells.filter((c) => c.target === 'ferry')
  const atMost = (v: number, max: number): [number, boolean] => [v, v <= max]
  const atLeast = (v: number | undefined, min: number): [number, boolean] | undefined =>
    v === undefined ? undefined : [v, v >= min]
  const cpu = cpuRatio(cells, get)
  const checks: [string, [number, boolean] | undefined][] = [
    ['1000-pt LP >= 1.3x vmagent', atLeast(ratio(get, '1000-pt LP', 'vmagent'), 1.3)],
    [
      '1000-pt LP >= 1.2x VictoriaMetrics',
      atLeast(ratio(get, '1000-pt LP', 'victoria-metrics'), 1.2),
    ],
    ['100-pt LP >= 1.0x vmagent', atLeast(ratio(get, '100-pt LP', 'vmagent'), 1)],
    ['1000-pt gzip >= 1.0x vmagent', atLeast(ratio(get, '1000-pt gzip', 'vmagent'), 1)],
    [
      'nginx via pipeline >= 60k lines/s',
      atLeast(get('ferry', 'nginx pipeline')?.acceptedPerS, 60_000),
    ],
    ['CPU per point <= vmagent (worst case)', cpu === undefined ? undefined : atMost(cpu, 1)],
    ['peak RSS <= 150 MB', atMost(Math.max(...ferry.map((c) => c.rssMb)), 150)],
    ['peak anonymous RSS <= 100 MB', atMost(Math.max(...ferry.map((c) => c.anonMb)), 100)],
    [
      'fast path share >= 95% (lowest case)',
      fast.size ? atLeast(Math.min(...fast.values()), 0.95) : undefined,
    ],
  ]
  console.log(
    '\nfast path share of corpus points: ' +
      [...fast].map(([k, v]) => `${k} ${(v * 100).toFixed(1)}%`).join(', '),
  )
  console.log('\ntargets:')
  for (const [name, r] of checks) {
    if (r === undefined) continue
    const [got, ok] = r
    console.log(
      `  ${pad(name, 42)}${ok ? 'met' : 'NOT met'} (${got < 10 ? got.toFixed(2) : fmt(got)})`,
    )
  }
}
