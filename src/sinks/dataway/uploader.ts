/**
 * Forwards buffered batches to every upstream in `[dataway] urls`.
 *
 * Invariants:
 * - One loop per (upstream, category), each with its own cursor: a slow or dead upstream, or a
 *   stuck category, never holds back another.
 * - A cursor moves only after every body of its window is delivered, dead-lettered (permanent
 *   refusal) or dropped as expired; so delivery is at least once, across crashes too.
 * - Exactly once with a deduplicating upstream: a window's end is committed (its plan) before
 *   any of it is sent, and bodies are cut by a pure function of the records (bodies.ts), so a
 *   resend after a crash carries the same X-Pkg-Id (pkg-id.ts) as the attempt before it. An
 *   upstream must deduplicate for at least `drop_expired_package_at`, the longest time between
 *   the first and the last attempt of one id.
 * - One buffer commit per window: the cursor move, the pruning and the next window's plan are
 *   committed together (`advance`), never a body sent before its plan is on disk.
 * - On shutdown, waits and retries stop at once; in-flight uploads get until the deadline; what
 *   is not delivered stays on disk for the next start.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { ReadBuffer, StoredBatch } from '../../buffer/buffer.js'
import type { Component } from '../../component.js'
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import { buildBodies, type UploadBody } from './bodies.js'
import { pool } from './pool.js'
import { groupedBodies } from './sinker.js'
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
  /** The sinker's keys for a new window (sinker.ts); empty or absent when the sinker is off. */
  sinkKeys?: () => string[]
}

export interface UploadEvents {
  uploadAttempt(upstream: string, body: UploadBody, outcome: string, seconds: number): void
  uploadRetry(upstream: string, body: UploadBody, err: UploadError, waitMs: number): void
  deadLettered(upstream: string, body: UploadBody, err: UploadError): void
  pointsDropped(category: string, reason: string, points: number): void
  /** A loop stopped on an error (the buffer's storage, most likely); it resumes after a pause. */
  loopFailed(upstream: string, category: string, err: unknown): void
}

type Outcome = 'done' | 'unfinished'

interface Window {
  batches: StoredBatch[]
  /** Last seq of the window (records up to it may have been pruned or dropped). */
  end: number
  maxRaw: number
  sinkKeys?: string[]
}

export class Uploader implements Component {
  readonly name = 'uploader'
  private readonly soft = new AbortController()
  private readonly hard = new AbortController()
  private loops: Promise<void>[] = []
  private started = false

  constructor(
    private readonly buffer: ReadBuffer,
    private readonly upstreams: Upstream[],
    private readonly opts: UploaderOptions,
    private readonly events: UploadEvents,
    /** Replaceable for tests of the far side; the real one is `httpSend`. */
    private readonly makeSend: (up: Upstream) => Send = (up) => httpSend(up, opts),
  ) {}

  async start(): Promise<void> {
    this.started = true
    for (const up of this.upstreams) {
      for (const c of CATEGORY_NAMES) this.loops.push(this.run(up, c, this.chain(up)))
    }
  }

  /**
   * Adds an upstream to a running uploader (the embedded workspace, once a retry starts it): its
   * loops start from its own cursors, so it receives everything still buffered. Before `start`,
   * the upstream simply joins the list.
   */
  addUpstream(up: Upstream): void {
    if (this.soft.signal.aborted || this.upstreams.some((u) => u.id === up.id)) return
    this.upstreams.push(up)
    if (this.started)
      for (const c of CATEGORY_NAMES) this.loops.push(this.run(up, c, this.chain(up)))
  }

  private chain(up: Upstream): Send {
    const o = this.opts
    const attempt = withMetrics(withTimeout(this.makeSend(up), o.timeoutMs), (b, outcome, s) =>
      this.events.uploadAttempt(up.label, b, outcome, s),
    )
    return withRetry(attempt, {
      initialMs: o.retryInitialMs,
      maxMs: o.retryMaxMs,
      // A body is given up once its newest record has expired: by then all of it has.
      deadline: (b) => (this.soft.signal.aborted ? 0 : b.receivedAt + o.maxAgeMs),
      onRetry: (b, err, wait) => this.events.uploadRetry(up.label, b, err, wait),
    })
  }

  /** The reader name of one loop: its cursor and plan are kept under it in the buffer. */
  private reader(up: Upstream, c: Category): string {
    return `${up.id}:${c}`
  }

  /** One loop; a failure of the buffer (EIO, ENOSPC) pauses it, never ends it. */
  private async run(up: Upstream, c: Category, send: Send): Promise<void> {
    while (!this.soft.signal.aborted) {
      try {
        return await this.loop(up, c, send)
      } catch (e) {
        this.events.loopFailed(up.label, c, e)
        await sleep(1000, undefined, { signal: this.soft.signal }).catch(() => undefined)
      }
    }
  }

  private async loop(up: Upstream, c: Category, send: Send): Promise<void> {
    const reader = this.reader(up, c)
    let cursor = this.buffer.getCursor(reader)
    let window = await this.nextWindow(reader, c, cursor)
    while (!this.soft.signal.aborted) {
      if (!window) {
        await this.buffer.waitFor(c, cursor, this.soft.signal)
        if (!this.soft.signal.aborted) window = await this.nextWindow(reader, c, cursor)
        continue
      }
      if ((await this.deliver(up, c, window, send)) === 'unfinished') break
      cursor = window.end
      window = await this.advance(reader, c, cursor)
    }
  }

  /**
   * Moves the cursor past a delivered window, prunes, and plans the next window in one commit:
   * the three writes are issued in one event turn, which the buffer commits as one transaction
   * (one fsync instead of three). Exactly once holds: the next plan is committed before any of
   * its bodies is sent, and a crash before the commit leaves the old plan and cursor, so the
   * delivered window is sent again under the same ids.
   */
  private async advance(reader: string, c: Category, cursor: number): Promise<Window | null> {
    const moved = this.buffer.setCursor(reader, cursor)
    const pruned = this.prune(c, reader, cursor)
    const next = this.soft.signal.aborted ? null : this.newWindow(reader, c, cursor)
    await Promise.all([moved, pruned, next?.planned])
    return next?.window ?? null
  }

  /**
   * The records to deliver next. A window whose plan was committed before a crash is read again
   * exactly as planned, so it is cut into the same bodies; a new window's plan is committed
   * before anything of it is sent.
   */
  private async nextWindow(reader: string, c: Category, cursor: number): Promise<Window | null> {
    const plan = this.buffer.getPlan(reader)
    if (plan && plan.end > cursor) {
      const batches = this.buffer.read(c, cursor, 0, plan.end)
      return { ...plan, batches }
    }
    const next = this.newWindow(reader, c, cursor)
    await next?.planned
    return next?.window ?? null
  }

  /** Reads a new window after `cursor` and starts committing its plan (null when none). */
  private newWindow(reader: string, c: Category, cursor: number) {
    const maxRaw = this.opts.maxRawBodySize
    const batches = this.buffer.read(c, cursor, maxRaw * this.opts.concurrency * 2)
    if (!batches.length) return null
    const end = batches[batches.length - 1].seq
    const keys = this.opts.sinkKeys?.() ?? []
    const plan = keys.length ? { end, maxRaw, sinkKeys: keys } : { end, maxRaw }
    return { window: { ...plan, batches }, planned: this.buffer.setPlan(reader, plan) }
  }

  private async deliver(up: Upstream, c: Category, w: Window, send: Send): Promise<Outcome> {
    const now = Date.now()
    const keep = (receivedAt: number) => now - receivedAt <= this.opts.maxAgeMs
    const bodies = w.sinkKeys
      ? groupedBodies(c, this.buffer.id, w.batches, w.maxRaw, w.sinkKeys, keep)
      : buildBodies(c, this.buffer.id, w.batches, w.maxRaw, keep)
    for (const b of bodies)
      if (b.expiredPoints) this.events.pointsDropped(c, 'expired', b.expiredPoints)
    const live = bodies.filter((b) => b.points > 0)
    const outcomes = await pool(live, this.opts.concurrency, (b) => this.deliverBody(up, b, send))
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

  /** Prunes what every upstream is done with, `reader` counted at its new `cursor`. */
  private async prune(c: Category, reader: string, cursor: number): Promise<void> {
    const at = (u: Upstream) => {
      const r = this.reader(u, c)
      return r === reader ? cursor : this.buffer.getCursor(r)
    }
    const done = Math.min(...this.upstreams.map(at))
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
