/** A Go `time.Duration.String()` rendering of nanoseconds ("350ns", "1.5µs", "2.25ms", "1.2s"). */
export function goDuration(ns: bigint): string {
  const n = Number(ns)
  const trim = (v: number) => String(Number(v.toFixed(6)))
  if (n < 1000) return `${n}ns`
  if (n < 1e6) return `${trim(n / 1e3)}µs`
  if (n < 1e9) return `${trim(n / 1e6)}ms`
  return `${trim(n / 1e9)}s`
}
