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
 * - A window's memory goes back to the buffer (`release`) only once every send of it has
 *   settled and only when its bodies were compressed: an uncompressed body is the window's own
 *   memory, which a socket torn down mid-write might still be reading.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { ReadBuffer } from '../../buffer/buffer.js'
import type { Component } from '../../component.js'
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import { deliverWindow, type DeliverContext } from './deliver.js'
import { httpSend, type Send } from './send.js'
import type { UploadEvents, UploaderOptions, Window } from './upload-types.js'
import type { Upstream } from './upstream.js'
import { newWindow, nextWindow, readerName } from './window.js'
import { withMetrics, withRetry, withTimeout } from './wrappers.js'

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
    const reader = readerName(up, c)
    const opts = this.windowOpts(up)
    let cursor = this.buffer.getCursor(reader)
    let window = await nextWindow(this.buffer, opts, reader, c, cursor)
    while (!this.soft.signal.aborted) {
      if (!window) {
        await this.buffer.waitFor(c, cursor, this.soft.signal)
        if (!this.soft.signal.aborted)
          window = await nextWindow(this.buffer, opts, reader, c, cursor)
        continue
      }
      const outcome = await deliverWindow(this.delivery(), up, c, window, send)
      // Every body of it was compressed into bytes of its own: its memory serves the next read.
      if ((up.compression ?? this.opts.compression) !== 'none') this.buffer.release(window.batches)
      if (outcome === 'unfinished') break
      cursor = window.end
      window = await this.advance(opts, reader, c, cursor)
    }
  }

  /**
   * Moves the cursor past a delivered window, prunes, and plans the next window in one commit:
   * the three writes are issued in one event turn, which the buffer commits as one transaction
   * (one fsync instead of three). Exactly once holds: the next plan is committed before any of
   * its bodies is sent, and a crash before the commit leaves the old plan and cursor, so the
   * delivered window is sent again under the same ids.
   */
  private async advance(
    opts: UploaderOptions,
    reader: string,
    c: Category,
    cursor: number,
  ): Promise<Window | null> {
    const moved = this.buffer.setCursor(reader, cursor)
    const pruned = this.prune(c, reader, cursor)
    const next = this.soft.signal.aborted ? null : newWindow(this.buffer, opts, reader, c, cursor)
    await Promise.all([moved, pruned, next?.planned])
    return next?.window ?? null
  }

  /** The options windows are planned with: the upstream's own body size where it has one. */
  private windowOpts(up: Upstream): UploaderOptions {
    const size = up.maxRawBodySize
    return size ? { ...this.opts, maxRawBodySize: size } : this.opts
  }

  private delivery(): DeliverContext {
    const { buffer, opts, events } = this
    return { buffer, opts, events, soft: this.soft.signal, hard: this.hard.signal }
  }

  /** Prunes what every upstream is done with, `reader` counted at its new `cursor`. */
  private async prune(c: Category, reader: string, cursor: number): Promise<void> {
    const at = (u: Upstream) => {
      const r = readerName(u, c)
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
