/**
 * Per-second rates of counters between two runs, by key (interface, device): whole units per
 * whole second, as the reference computes them. The first run, or a counter that went back
 * (a reset), gives no rate.
 */
export class Rates {
  private last = new Map<string, { at: number; values: Record<string, number> }>()

  /** Adds `<name>/sec` for each of `names` to `out`. */
  add(
    key: string,
    at: number,
    values: Record<string, number>,
    names: string[],
    out: Record<string, number>,
  ): void {
    const before = this.last.get(key)
    this.last.set(key, { at, values })
    const secs = before ? Math.floor(at / 1000) - Math.floor(before.at / 1000) : 0
    if (!before || secs <= 0) return
    for (const n of names) {
      const d = values[n] - before.values[n]
      if (d >= 0) out[`${n}/sec`] = Math.trunc(d / secs)
    }
  }
}
