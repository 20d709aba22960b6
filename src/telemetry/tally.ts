/**
 * A labelled counter's increments kept as plain numbers per label set and added to the counter
 * when it is read (its `collect`, before every scrape or sample): `Counter.inc` with labels
 * validates and hashes the labels on every call, which the write path would pay per request.
 *
 * Invariants: a read sees every increment made before it, so `/metrics` shows the same values;
 * label sets reach the counter in the order they were first counted, as direct increments
 * would have; the map holds one entry per label set, so it is bounded as the counter's own
 * label values are (routes, methods, statuses, categories).
 */
import type { Counter, LabelValues } from 'prom-client'

interface Pending<L extends string> {
  labels: LabelValues<L>
  n: number
  /** Whether the counter has this label set (an increment by 0 creates it there too). */
  published: boolean
}

export class Tally<L extends string> {
  private readonly pending = new Map<string, Pending<L>>()

  /** Adds `n` under `key` (one key per label set); `labels` is only called the first time. */
  add(key: string, labels: () => LabelValues<L>, n = 1): void {
    const p = this.pending.get(key)
    if (p) p.n += n
    else this.pending.set(key, { labels: labels(), n, published: false })
  }

  /** Moves what was counted since the last read into the counter (its `collect`). */
  flushInto(counter: Counter<L>): void {
    for (const p of this.pending.values()) {
      if (p.n === 0 && p.published) continue
      counter.inc(p.labels, p.n)
      p.n = 0
      p.published = true
    }
  }
}
