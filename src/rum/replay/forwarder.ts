/**
 * Sends queued session replays to the first upstream's replay route, oldest first: each file
 * is removed only after a 2xx; a 4xx (other than 408 and 429) is refused for good and dropped;
 * anything else is retried with a growing pause, so nothing is lost while the upstream is away.
 */
import type { Component } from '../../component.js'
import type { ReplayQueue } from './queue.js'

export interface ReplayTarget {
  /** `origin + /v1/write/rum/replay?query`, or null while no upstream is known. */
  url(): string | null
  userAgent: string
  timeoutMs: number
  /** The upstream's fetch (its proxy and TLS); the process's default when absent. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>
}

export type ReplayOutcome = 'sent' | 'failed' | 'rejected'

export class ReplayForwarder implements Component {
  readonly name = 'replay-forwarder'
  private stopped = false
  private loop: Promise<void> | null = null

  constructor(
    private readonly queue: ReplayQueue,
    private readonly target: ReplayTarget,
    private readonly report: (outcome: ReplayOutcome, detail: string) => void,
  ) {}

  async start(): Promise<void> {
    await this.queue.open()
    this.loop ??= this.run()
  }

  async shutdown(): Promise<void> {
    this.stopped = true
    await this.loop
  }

  private async run(): Promise<void> {
    let pause = 500
    while (!this.stopped) {
      const ids = await this.queue.ids().catch(() => [])
      let failed = false
      for (const id of ids) {
        if (this.stopped || !(await this.send(id))) {
          failed = true
          break
        }
      }
      pause = failed ? Math.min(pause * 2, 30_000) : 500
      await this.queue.waitForPush(failed ? pause : 1000)
    }
  }

  /** True when the item left the queue (sent or refused for good). */
  private async send(id: string): Promise<boolean> {
    const url = this.target.url()
    if (!url) return false
    try {
      const item = await this.queue.read(id)
      const res = await (this.target.fetch ?? fetch)(url, {
        method: 'POST',
        body: item.body,
        headers: { 'Content-Type': item.contentType, 'User-Agent': this.target.userAgent },
        signal: AbortSignal.timeout(this.target.timeoutMs),
      })
      await res.arrayBuffer().catch(() => undefined)
      const refused = res.status >= 400 && res.status < 500 && ![408, 429].includes(res.status)
      if (!res.ok && !refused) {
        this.report('failed', `replay upload answered ${res.status}`)
        return false
      }
      await this.queue.remove(id)
      this.report(refused ? 'rejected' : 'sent', refused ? `replay refused: ${res.status}` : '')
      return true
    } catch (e) {
      this.report('failed', `replay upload: ${(e as Error).message}`)
      return false
    }
  }
}
