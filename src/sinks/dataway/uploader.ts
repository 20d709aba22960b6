/**
 * Forwards buffered batches to every upstream in `[dataway] urls`.
 *
 * Invariants:
 * - One loop per (upstream, category), each with its own cursor: a slow or dead upstream, or a
 *   stuck category, never holds back another.
 * - A cursor moves only after every body of its window is delivered, dead-lettered (permanent
 *   refusal) or dropped as expired; so delivery is at least once, across crashes too. Bodies
 *   carry deterministic X-Pkg-Id values, so an upstream can drop the duplicates.
 * - On shutdown, waits and retries stop at once; in-flight uploads get until the deadline; what
 *   is not delivered stays on disk for the next start.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { DiskBuffer } from '../../buffer/disk/disk-buffer.js'
import type { StoredBatch } from '../../buffer/disk/types.js'
import type { Component } from '../../component.js'
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import { buildBodies, type UploadBody } from './bodies.js'
import { httpSend, UploadError, type Send, type SendOptions } from './send.js'
import type { Upstream } from './upstream.js'
import { withMetrics, withRetry, withTimeout } from './wrappers.js'

export interface UploaderOptions extends SendOptions {
  maxRawBodySize: number
  timeoutMs: number
  retryInitialMs: number
  retryMaxMs: number
  maxAgeMs: number
  concurrency: number
  shutdownTimeoutMs: number
  maxDeadLetters: number
}

export interface UploadEvents {
  uploadAttempt(upstream: string, body: UploadBody, outcome: string, seconds: number): void
  uploadRetry(upstream: string, body: UploadBody, err: UploadError, waitMs: number): void
  deadLettered(upstream: string, body: UploadBody, err: UploadError): void
  pointsDropped(category: string, reason: string, points: number): void
}

type Outcome = 'done' | 'unfinished'

export class Uploader implements Component {
  readonly name = 'uploader'
  private readonly soft = new AbortController()
  private readonly hard = new AbortController()
  private loops: Promise<void>[] = []

  constructor(
    private readonly buffer: DiskBuffer,
    private readonly upstreams: Upstream[],
    private readonly opts: UploaderOptions,
    private readonly events: UploadEvents,
    /** Replaceable for tests of the far side; the real one is `httpSend`. */
    private readonly makeSend: (up: Upstream) => Send = (up) => httpSend(up, opts),
  ) {}

  async start(): Promise<void> {
    for (const up of this.upstreams) {
      for (const c of CATEGORY_NAMES) this.loops.push(this.run(up, c, this.chain(up)))
    }
  }

  private chain(up: Upstream): Send {
    const o = this.opts
    const attempt = withMetrics(withTimeout(this.makeSend(up), o.timeoutMs), (b, outcome, s) =>
      this.events.uploadAttempt(up.label, b, outcome, s),
    )
    return withRetry(attempt, {
      initialMs: o.retryInitialMs,
      maxMs: o.retryMaxMs,
      deadline: (b) => (this.soft.signal.aborted ? 0 : b.receivedAt + o.maxAgeMs),
      onRetry: (b, err, wait) => this.events.uploadRetry(up.label, b, err, wait),
    })
  }

  private cursorName(up: Upstream, c: Category): string {
    return `cursor:${up.id}:${c}`
  }

  private async run(up: Upstream, c: Category, send: Send): Promise<void> {
    let cursor = this.buffer.getCursor(this.cursorName(up, c))
    const window = this.opts.maxRawBodySize * this.opts.concurrency * 2
    while (!this.soft.signal.aborted) {
      const batches = this.buffer.read(c, cursor, window)
      if (!batches.length) {
        await this.buffer.waitFor(c, cursor, this.soft.signal)
        continue
      }
      if ((await this.deliver(up, c, batches, send)) === 'unfinished') break
      cursor = batches[batches.length - 1].seq
      await this.buffer.setCursor(this.cursorName(up, c), cursor)
      await this.prune(c)
    }
  }

  private async deliver(
    up: Upstream,
    c: Category,
    batches: StoredBatch[],
    send: Send,
  ): Promise<Outcome> {
    const now = Date.now()
    const fresh = batches.filter((b) => {
      if (now - b.receivedAt <= this.opts.maxAgeMs) return true
      this.events.pointsDropped(c, 'expired', b.points)
      return false
    })
    const bodies = buildBodies(c, fresh, this.opts.maxRawBodySize)
    const outcomes = await this.pool(bodies, (b) => this.deliverBody(up, b, send))
    return outcomes.includes('unfinished') ? 'unfinished' : 'done'
  }

  private async deliverBody(up: Upstream, body: UploadBody, send: Send): Promise<Outcome> {
    try {
      await send(body, this.hard.signal)
      return 'done'
    } catch (e) {
      if (!(e instanceof UploadError)) throw e
      if (this.soft.signal.aborted) return 'unfinished'
      if (e.retryable) {
        this.events.pointsDropped(body.category, 'expired', body.points)
        return 'done'
      }
      this.events.deadLettered(up.label, body, e)
      await this.buffer.addDeadLetter(
        {
          upstream: up.label,
          category: body.category as Category,
          seq: body.lastSeq,
          status: e.httpStatus,
          response: e.responseText,
          at: Date.now(),
          points: body.points,
        },
        this.opts.maxDeadLetters,
      )
      return 'done'
    }
  }

  /** Runs `fn` over items with at most `concurrency` in flight. */
  private async pool<T, R>(items: T[], fn: (t: T) => Promise<R>): Promise<R[]> {
    const out: R[] = new Array(items.length)
    let next = 0
    const worker = async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await fn(items[i])
      }
    }
    await Promise.all(Array.from({ length: Math.min(this.opts.concurrency, items.length) }, worker))
    return out
  }

  private async prune(c: Category): Promise<void> {
    const done = Math.min(
      ...this.upstreams.map((u) => this.buffer.getCursor(this.cursorName(u, c))),
    )
    if (done > 0) await this.buffer.prune(c, done)
  }

  async shutdown(): Promise<void> {
    if (this.soft.signal.aborted) return
    this.soft.abort()
    const deadline = sleep(this.opts.shutdownTimeoutMs, 'deadline', { ref: false })
    const finished = Promise.allSettled(this.loops).then(() => 'finished')
    if ((await Promise.race([finished, deadline])) === 'deadline') {
      this.hard.abort()
      await finished
    }
  }
}
