/**
 * Clock correction from the first upstream's `GET /v1/ntp` (`{"timestamp_sec": N}`), every
 * `[dataway.ntp] interval`, first at start.
 *
 * Invariants:
 * - The offset is whole seconds (the answer's precision): upstream time minus local time.
 * - It applies only when at least `diff` (as the reference agent); a later sync under `diff`
 *   sets it back to 0 (the reference keeps the last one), so a clock fixed locally is trusted.
 * - A failed sync keeps the offset it had: an unreachable upstream says nothing about time.
 * - `offsetMs()` is read on every write (it stamps points without a time, and is the "now"
 *   of `auto_timestamp_correction`): a plain field read.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Component } from '../../component.js'
import { deadline } from '../../shared/deadline.js'
import { upstreamGet } from './network.js'
import type { Upstream } from './upstream.js'

export interface NtpOptions {
  intervalMs: number
  diffMs: number
  timeoutMs: number
  userAgent: string
}

export interface NtpEvents {
  ntpSynced(upstream: string, measuredSeconds: number, appliedSeconds: number): void
  ntpFailed(upstream: string, why: string): void
}

export class NtpClock implements Component {
  readonly name = 'ntp'
  private offset = 0
  private readonly stop = new AbortController()
  private loop: Promise<void> | null = null

  constructor(
    private readonly upstream: () => Upstream | null,
    private readonly o: NtpOptions,
    private readonly events: NtpEvents,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds to add to the local clock; 0 unless a sync found at least `diff`. */
  offsetMs(): number {
    return this.offset
  }

  async start(): Promise<void> {
    this.loop ??= this.run()
  }

  async shutdown(): Promise<void> {
    this.stop.abort()
    await this.loop
  }

  private async run(): Promise<void> {
    while (!this.stop.signal.aborted) {
      await this.syncOnce()
      await sleep(this.o.intervalMs, undefined, { signal: this.stop.signal }).catch(() => {})
    }
  }

  /** One sync; never throws. */
  async syncOnce(): Promise<void> {
    const up = this.upstream()
    if (!up) return
    const limit = deadline(this.o.timeoutMs, this.stop.signal)
    try {
      const url = `${up.origin}/v1/ntp${up.query ? `?${up.query}` : ''}`
      const res = await upstreamGet(up, url, {
        headers: { 'User-Agent': this.o.userAgent },
        signal: limit.signal,
      })
      const text = await res.text()
      if (res.status < 200 || res.status >= 300) throw new Error(`answered ${res.status}`)
      const sec = (JSON.parse(text) as { timestamp_sec?: unknown }).timestamp_sec
      if (typeof sec !== 'number' || !Number.isFinite(sec)) throw new Error('no timestamp_sec')
      // Whole seconds on both sides, as the answer is: rounding one side only would be off by one.
      const measured = Math.trunc(sec) - Math.floor(this.now() / 1000)
      this.offset = Math.abs(measured) * 1000 >= this.o.diffMs ? measured * 1000 : 0
      this.events.ntpSynced(up.label, measured, this.offset / 1000)
    } catch (e) {
      if (!this.stop.signal.aborted) this.events.ntpFailed(up.label, (e as Error).message)
    } finally {
      limit.clear()
    }
  }
}
