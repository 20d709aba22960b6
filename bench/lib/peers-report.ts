/**
 * The printed report of `bench:peers`: one row per (case, target), Ferry's accepted rate as a
 * ratio to each peer per case, and the issue's targets marked met or not.
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
  non2xx: number
  extra: string
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const pad = (s: string, n: number) => s.padEnd(n)
const lpad = (s: string, n: number) => s.padStart(n)

export function printTable(cells: Cell[]): void {
  console.log(
    '\npeak RSS: VmHWM of the process (mapped file pages count: LMDB pages Ferry touched); ' +
      'anon: peak sampled RssAnon (heap and native memory only)',
  )
  console.log(
    `\n${pad('case', 15)}${pad('target', 18)}${lpad('accepted/s', 12)}${lpad('delivered/s', 13)}` +
      `${lpad('deliv%', 8)}${lpad('p50 ms', 9)}${lpad('p99 ms', 9)}${lpad('peak RSS', 10)}${lpad('anon', 8)}${lpad('non-2xx', 9)}`,
  )
  for (const c of cells) {
    const d = c.deliveredPerS === null ? '-' : fmt(c.deliveredPerS)
    const share = c.deliveredShare === null ? '-' : `${(c.deliveredShare * 100).toFixed(1)}`
    console.log(
      `${pad(c.caseName, 15)}${pad(c.target, 18)}${lpad(fmt(c.acceptedPerS), 12)}${lpad(d, 13)}` +
        `${lpad(share, 8)}${lpad(c.p50.toFixed(1), 9)}${lpad(c.p99.toFixed(1), 9)}` +
        `${lpad(`${c.rssMb.toFixed(0)} MB`, 10)}${lpad(`${c.anonMb.toFixed(0)} MB`, 8)}${lpad(String(c.non2xx), 9)}` +
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
      (p) => `${p.target} ${(mine.acceptedPerS / p.acceptedPerS).toFixed(2)}x`,
    )
    console.log(`  ${pad(mine.caseName, 15)}${parts.join(', ')}`)
  }
}

/** The write-path issue's targets for the 2-core machine. */
export function printTargets(cells: Cell[]): void {
  const get = (t: string, c: string) => cells.find((x) => x.target === t && x.caseName === c)
  const checks: [string, number | undefined, number][] = [
    ['1000-pt LP >= 300k points/s', get('ferry', '1000-pt LP')?.acceptedPerS, 300_000],
    ['100-pt LP >= 220k points/s', get('ferry', '100-pt LP')?.acceptedPerS, 220_000],
    ['nginx via pipeline >= 100k lines/s', get('ferry', 'nginx pipeline')?.acceptedPerS, 100_000],
  ]
  const vma = get('vmagent', '1000-pt LP')?.acceptedPerS
  const mine = get('ferry', '1000-pt LP')?.acceptedPerS
  if (vma !== undefined && mine !== undefined)
    checks.push(['1000-pt LP >= 1.0x vmagent (same run)', mine / vma, 1])
  const rss = Math.max(...cells.filter((c) => c.target === 'ferry').map((c) => c.rssMb))
  console.log('\ntargets:')
  for (const [name, got, want] of checks) {
    if (got === undefined) continue
    console.log(
      `  ${pad(name, 40)}${got >= want ? 'met' : 'NOT met'} (${got < 10 ? got.toFixed(2) : fmt(got)})`,
    )
  }
  console.log(
    `  ${pad('peak RSS <= 200 MB', 40)}${rss <= 200 ? 'met' : 'NOT met'} (${rss.toFixed(0)} MB)`,
  )
}
