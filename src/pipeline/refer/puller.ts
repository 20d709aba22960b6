/**
 * Pulls the refer tables from `[pipeline] refer_table_url` on the main thread, every
 * `refer_table_pull_interval`, and keeps the last good copy as JSON bytes in shared memory:
 * each decode task carries the handle and a worker parses a version once (lib/fn-refer.ts).
 *
 * Invariants: a response larger than `refer_table_max_bytes` is cut off and refused, as is
 * one that is not a JSON list or does not arrive within the timeout; a refused pull keeps the
 * previous tables (none before the first good pull); one pull at a time; this thread adopts
 * each good copy too (the inline decode path runs scripts here).
 */
import type { Component } from '../../component.js'
import { deadline } from '../../shared/deadline.js'
import { adoptRefer, type SharedRefer } from '../lib/fn-refer.js'
import { parseReferTables } from './table.js'

export interface ReferOptions {
  url: string
  intervalMs: number
  maxBytes: number
  timeoutMs: number
}

export interface ReferEvents {
  referLoaded(tables: number, rows: number, refused: string[]): void
  referFailed(error: string): void
}

async function readCapped(res: Response, max: number): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of res.body) {
    size += (chunk as Uint8Array).byteLength
    if (size > max) throw new Error(`the tables are larger than ${max} bytes`)
    chunks.push(chunk as Uint8Array)
  }
  return Buffer.concat(chunks)
}

export class ReferPuller implements Component {
  readonly name = 'refer-tables'
  private shared: SharedRefer | null = null
  private timer: NodeJS.Timeout | null = null
  private running: Promise<boolean> | null = null
  private version = 0

  constructor(
    private readonly opts: ReferOptions,
    private readonly events: ReferEvents,
  ) {}

  /** The last good tables, for decode tasks; null before the first good pull. */
  current(): SharedRefer | null {
    return this.shared
  }

  async start(): Promise<void> {
    if (this.timer) return
    this.timer = setInterval(() => void this.pull(), this.opts.intervalMs)
    this.timer.unref()
    // Not awaited: an unreachable table server must not hold the agent's start (the
    // functions find no table until the first good pull, as in the reference).
    void this.pull()
  }

  async shutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running
  }

  /** One pull (joined when one is under way); true when new tables were adopted. */
  pull(): Promise<boolean> {
    this.running ??= this.fetchTables().finally(() => (this.running = null))
    return this.running
  }

  private async fetchTables(): Promise<boolean> {
    const d = deadline(this.opts.timeoutMs)
    try {
      const res = await fetch(this.opts.url, { signal: d.signal })
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      const bytes = await readCapped(res, this.opts.maxBytes)
      const parsed = parseReferTables(Buffer.from(bytes).toString('utf8'))
      const shared = new SharedArrayBuffer(bytes.byteLength)
      new Uint8Array(shared).set(bytes)
      this.shared = { version: ++this.version, bytes: shared }
      adoptRefer(this.shared)
      this.events.referLoaded(parsed.tables.size, parsed.rows, parsed.refused)
      return true
    } catch (err) {
      this.events.referFailed(err instanceof Error ? err.message : String(err))
      return false
    } finally {
      d.clear()
    }
  }
}
