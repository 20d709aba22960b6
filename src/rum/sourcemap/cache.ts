/**
 * Loaded source map zips, least recently used first out, bounded in zips, in bytes of map
 * text and in map entries. A zip is looked at again (one stat) at most every `recheckMs`: a
 * changed mtime or size reloads it, a removed file drops it.
 *
 * Reading is bounded too: one zip inflates at a time per cache (so at most the cache plus one
 * zip's budget is held), each within `zipBytes` and `zipEntries` (and never more than the
 * whole cache may hold); a zip over budget is refused and remembered by mtime and size, so
 * naming it again costs one stat, not another inflation, until it is replaced. A caller waits
 * at most `waitMs` for a load: the load goes on and serves the next caller.
 */
import { promises as fs } from 'node:fs'
import { LruMap } from '../../shared/lru.js'
import { ZipRefused } from '../zip/bounded.js'
import { readZipMaps, type ZipMaps } from './zip-maps.js'

export interface CacheLimits {
  maxZips: number
  /** Map bytes over the whole cache. */
  maxBytes: number
  /** Map entries over the whole cache. */
  maxEntries: number
  /** Inflated bytes and entries one zip may have. */
  zipBytes: number
  zipEntries: number
  recheckMs: number
  /** The longest a caller waits for a zip to load. */
  waitMs: number
}

interface Stat {
  mtimeMs: number
  size: number
}

interface Slot {
  maps: ZipMaps
  mtimeMs: number
  size: number
  checkedAt: number
}

/** A zip that failed to load (over budget or unreadable), until it changes. */
interface Failed {
  mtimeMs: number
  size: number
  outcome: { error: string } | { refused: { reason: string; fresh: false } }
  /** Whether a caller has been given the refusal yet (it is counted once, by that caller). */
  told: boolean
}

/**
 * `refused.fresh` is true for the first call given a zip's refusal: a caller that stopped
 * waiting never sees it, so the next one naming the zip counts it.
 */
export type Loaded =
  | { maps: ZipMaps }
  | { missing: true }
  | { error: string }
  | { refused: { reason: string; fresh: boolean } }

/** Failed zips remembered: enough for every zip a busy agent holds, bounded. */
const FAILED_KEPT = 1_024

export class SourceMapCache {
  private readonly slots = new Map<string, Slot>()
  private readonly loading = new Map<string, Promise<Loaded>>()
  private readonly failed = new LruMap<string, Failed>(FAILED_KEPT)
  /** The load running now; the next one starts after it. */
  private queue: Promise<unknown> = Promise.resolve()
  private bytes = 0
  private entries = 0

  constructor(private readonly limits: CacheLimits) {}

  get size(): number {
    return this.slots.size
  }

  get totalBytes(): number {
    return this.bytes
  }

  async get(file: string, now = Date.now()): Promise<Loaded> {
    const slot = this.slots.get(file)
    if (slot && now - slot.checkedAt < this.limits.recheckMs) {
      this.touch(file, slot)
      return { maps: slot.maps }
    }
    let p = this.loading.get(file)
    if (!p) {
      p = this.refresh(file, slot, now).finally(() => this.loading.delete(file))
      this.loading.set(file, p)
    }
    return this.tell(file, await this.waitAtMost(p))
  }

  drop(file: string): void {
    this.failed.delete(file)
    const slot = this.slots.get(file)
    if (!slot) return
    this.slots.delete(file)
    this.bytes -= slot.maps.bytes
    this.entries -= slot.maps.count
    slot.maps.close()
  }

  clear(): void {
    for (const file of [...this.slots.keys()]) this.drop(file)
    this.failed.clear()
  }

  private tell(file: string, loaded: Loaded): Loaded {
    if (!('refused' in loaded)) return loaded
    const f = this.failed.get(file)
    if (!f || f.told) return loaded
    f.told = true
    return { refused: { ...loaded.refused, fresh: true } }
  }

  private waitAtMost(p: Promise<Loaded>): Promise<Loaded> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<Loaded>((resolve) => {
      timer = setTimeout(
        () => resolve({ error: 'source map zip is still loading, try again later' }),
        this.limits.waitMs,
      )
      timer.unref()
    })
    return Promise.race([p, late]).finally(() => clearTimeout(timer))
  }

  private async refresh(file: string, slot: Slot | undefined, now: number): Promise<Loaded> {
    const st = await fs.stat(file).catch(() => null)
    if (!st?.isFile()) {
      this.drop(file)
      return { missing: true }
    }
    if (slot && slot.mtimeMs === st.mtimeMs && slot.size === st.size) {
      slot.checkedAt = now
      this.touch(file, slot)
      return { maps: slot.maps }
    }
    const known = this.failed.get(file)
    if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known.outcome
    this.drop(file)
    const load = this.queue.then(() => this.load(file, st, now))
    this.queue = load.catch(() => undefined)
    return load
  }

  private async load(file: string, st: Stat, now: number): Promise<Loaded> {
    const l = this.limits
    const budget = {
      maxBytes: Math.min(l.zipBytes, l.maxBytes),
      maxEntries: Math.min(l.zipEntries, l.maxEntries),
    }
    try {
      const maps = await readZipMaps(file, budget)
      this.insert(file, { maps, mtimeMs: st.mtimeMs, size: st.size, checkedAt: now })
      return { maps }
    } catch (e) {
      const { mtimeMs, size } = st
      if (!(e instanceof ZipRefused)) {
        const outcome = { error: `read sourcemap zip failed: ${(e as Error).message}` }
        this.failed.set(file, { mtimeMs, size, outcome, told: true })
        return outcome
      }
      const outcome = { refused: { reason: e.message, fresh: false as const } }
      this.failed.set(file, { mtimeMs, size, outcome, told: false })
      return outcome
    }
  }

  private touch(file: string, slot: Slot): void {
    this.slots.delete(file)
    this.slots.set(file, slot)
  }

  private insert(file: string, slot: Slot): void {
    this.slots.set(file, slot)
    this.bytes += slot.maps.bytes
    this.entries += slot.maps.count
    const l = this.limits
    // The newest zip stays even alone over the bounds: it is in use right now.
    while (
      this.slots.size > 1 &&
      (this.slots.size > l.maxZips || this.bytes > l.maxBytes || this.entries > l.maxEntries)
    ) {
      this.drop(this.slots.keys().next().value as string)
    }
  }
}
