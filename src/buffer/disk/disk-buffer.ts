/**
 * The durable BatchBuffer on LMDB.
 *
 * Invariants:
 * - `push` resolves only after the record is committed (and, in `sync` durability, flushed to
 *   disk); concurrent pushes share one transaction (lmdb-js batches writes of an event turn).
 * - One sub-database per category; keys are `[seq, receivedAt, points, bytes]` with a global,
 *   strictly increasing `seq`, so a range scan yields records in arrival order and the key
 *   alone carries what statistics and pruning need.
 * - Each upstream has a cursor per category: every record with `seq <= cursor` is done for it.
 *   A record is removed once every upstream's cursor has passed it.
 * - Damaged records are skipped and counted, never uploaded and never fatal.
 */
import fs from 'node:fs'
import { open, type Database, type RootDatabase } from 'lmdb'
import { FerryError } from '../../errors.js'
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import type { Batch, BatchBuffer, BufferStats } from '../buffer.js'
import { fits, victimCategory, type Held } from './budget.js'
import { CategoryStats, type CategoryCounters } from './stats.js'
import { decodeRecord, encodeRecord, RecordError } from './record.js'
import type { BufferEvents, DiskBufferOptions, StoredBatch } from './types.js'

type Key = [number, number, number, number]

function firstKeyOf<K extends Key | number>(
  db: Database<unknown, K>,
  reverse = false,
): K | undefined {
  for (const k of db.getKeys({ limit: 1, reverse })) return k
  return undefined
}

export interface DeadLetter {
  upstream: string
  category: Category
  seq: number
  status: number
  response: string
  at: number
  points: number
}

export class DiskBuffer implements BatchBuffer {
  readonly name = 'disk-buffer'
  private env: RootDatabase | null = null
  private dbs = new Map<Category, Database<Buffer, Key>>()
  private meta: Database<number, string> | null = null
  private dead: Database<DeadLetter, number> | null = null
  private deadSeq = 1
  private seq = 1
  private readonly stats_ = new CategoryStats()
  private readonly waiters = new Map<Category, Set<() => void>>()
  private freeDiskAt = 0
  private freeDisk = Infinity
  private closed = false

  constructor(
    private readonly opts: DiskBufferOptions,
    private readonly events: BufferEvents,
  ) {}

  async start(): Promise<void> {
    fs.mkdirSync(this.opts.path, { recursive: true })
    this.env = open({
      path: this.opts.path,
      maxDbs: 16,
      pageSize: 16384,
      // `async` durability: a commit is acknowledged when visible; the flush follows it.
      ...(this.opts.durability === 'async' ? { separateFlushed: true } : {}),
    })
    this.meta = this.env.openDB<number, string>({ name: 'meta' })
    this.dead = this.env.openDB<DeadLetter, number>({ name: 'dead' })
    this.deadSeq = (firstKeyOf(this.dead, true) ?? 0) + 1
    for (const c of CATEGORY_NAMES) {
      this.dbs.set(c, this.env.openDB<Buffer, Key>({ name: `cat:${c}`, encoding: 'binary' }))
    }
    await this.verifyAll()
    // Pruned records leave no key behind, so the next seq must also pass every cursor;
    // otherwise a new record could hide behind a cursor and never be sent.
    for (const { key, value } of this.meta.getRange()) {
      if (key.startsWith('cursor:')) this.seq = Math.max(this.seq, value + 1)
    }
  }

  /** Start-up scan: verify every record, drop damaged ones, rebuild statistics and `seq`. */
  private async verifyAll(): Promise<void> {
    for (const [category, db] of this.dbs) {
      const damaged: Key[] = []
      for (const { key, value } of db.getRange()) {
        this.seq = Math.max(this.seq, key[0] + 1)
        try {
          decodeRecord(value)
          this.stats_.add(category, key[3], key[2], key[1])
        } catch (e) {
          damaged.push(key)
          this.events.recordDamaged(category, key[0], (e as Error).message)
        }
      }
      if (damaged.length) await db.transaction(() => damaged.forEach((k) => db.remove(k)))
    }
  }

  private held(category: Category): Held {
    return {
      category: this.stats_.get(category).bytes,
      total: this.stats_.total().bytes,
      freeDisk: this.freeDisk,
    }
  }

  private room(category: Category, bytes: number): boolean {
    const now = Date.now()
    if (now - this.freeDiskAt > 1000) {
      this.freeDiskAt = now
      const st = fs.statfsSync(this.opts.path)
      this.freeDisk = st.bavail * st.bsize
    }
    return fits(this.opts, this.held(category), bytes)
  }

  /** Makes room per `when_full`; returns false when the new batch must be dropped. */
  private async makeRoom(batch: Batch, bytes: number): Promise<boolean> {
    if (this.room(batch.category, bytes)) return true
    const held = this.held(batch.category)
    const why = `buffer for ${batch.category} is full (${held.category} bytes held, ${held.total} in all categories, free disk ${this.freeDisk})`
    if (this.opts.whenFull === 'reject') throw new FerryError('bufferFull', why, { retryAfter: 5 })
    if (this.opts.whenFull === 'drop_newest') {
      this.events.pointsDropped(batch.category, 'buffer_full_drop_newest', batch.points)
      return false
    }
    // Each round empties a category or makes room, so the loop is bounded.
    for (let round = 0; round < CATEGORY_NAMES.length; round++) {
      const now = this.held(batch.category)
      const victim = victimCategory(this.opts, now, bytes, batch.category, this.stats_)
      if (!victim) break
      await this.dropOldest(victim, batch.category, bytes)
      if (fits(this.opts, this.held(batch.category), bytes)) break
    }
    return true
  }

  /** Drops `victim`'s oldest batches (at least one) until a batch of `need` fits `category`. */
  private async dropOldest(victim: Category, category: Category, need: number): Promise<void> {
    const db = this.dbs.get(victim)!
    const victims: Key[] = []
    let freed = 0
    const held = this.held(category)
    for (const key of db.getKeys()) {
      const after = {
        category: held.category - (victim === category ? freed : 0),
        total: held.total - freed,
        freeDisk: held.freeDisk + freed,
      }
      if (victims.length && fits(this.opts, after, need)) break
      victims.push(key)
      freed += key[3]
    }
    await db.transaction(() => victims.forEach((k) => db.remove(k)))
    for (const k of victims) {
      this.stats_.remove(victim, k[3], k[2])
      this.events.pointsDropped(victim, 'buffer_full_drop_oldest', k[2])
    }
    this.stats_.resetOldest(victim, firstKeyOf(db)?.[1])
    // LMDB reuses the freed pages for the next records, though statfs will not show them free.
    this.freeDisk += freed
  }

  async push(batch: Batch): Promise<void> {
    if (this.closed || !this.env) throw new FerryError('shuttingDown', 'the agent is shutting down')
    const record = encodeRecord(batch)
    if (!(await this.makeRoom(batch, record.length))) return
    const key: Key = [this.seq++, batch.receivedAt, batch.points, record.length]
    const db = this.dbs.get(batch.category)!
    const started = performance.now()
    await db.put(key, record)
    if (this.opts.durability === 'sync') await db.flushed
    this.events.committed((performance.now() - started) / 1000)
    this.stats_.add(batch.category, record.length, batch.points, batch.receivedAt)
    this.wake(batch.category)
  }

  /** Up to `maxBytes` (at least one record) of records after `afterSeq`, damaged ones skipped. */
  read(category: Category, afterSeq: number, maxBytes: number): StoredBatch[] {
    const db = this.dbs.get(category)
    if (!db) return []
    const out: StoredBatch[] = []
    let bytes = 0
    for (const { key, value } of db.getRange({ start: [afterSeq + 1] })) {
      if (out.length && bytes + key[3] > maxBytes) break
      try {
        out.push({ ...decodeRecord(value), seq: key[0] })
        bytes += key[3]
      } catch (e) {
        if (!(e instanceof RecordError)) throw e
        this.events.recordDamaged(category, key[0], e.message)
      }
    }
    return out
  }

  /** Removes records every upstream is done with (`seq <= upTo`). */
  async prune(category: Category, upTo: number): Promise<void> {
    const db = this.dbs.get(category)!
    const keys = [...db.getKeys({ end: [upTo + 1] })]
    if (!keys.length) return
    await db.transaction(() => keys.forEach((k) => db.remove(k)))
    for (const k of keys) this.stats_.remove(category, k[3], k[2])
    this.stats_.resetOldest(category, firstKeyOf(db)?.[1])
  }

  getCursor(name: string): number {
    return this.meta?.get(name) ?? 0
  }

  async setCursor(name: string, seq: number): Promise<void> {
    await this.meta!.put(name, seq)
  }

  /**
   * Keeps a permanently refused batch's description and the upstream's answer, bounded to
   * `max` entries (oldest evicted). The batch's points are counted as dropped by the caller.
   */
  async addDeadLetter(d: DeadLetter, max: number): Promise<void> {
    const dead = this.dead!
    await dead.put(this.deadSeq++, d)
    const excess = dead.getCount() - max
    if (excess > 0) {
      const old = [...dead.getKeys({ limit: excess })]
      await dead.transaction(() => old.forEach((k) => dead.remove(k)))
    }
  }

  deadLetters(): DeadLetter[] {
    return this.dead ? [...this.dead.getRange()].map((e) => e.value) : []
  }

  /** Resolves when a record newer than `afterSeq` exists, or when `signal` aborts. */
  waitFor(category: Category, afterSeq: number, signal: AbortSignal): Promise<void> {
    if (this.latestSeq(category) > afterSeq || signal.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const set = this.waiters.get(category) ?? new Set()
      this.waiters.set(category, set)
      const done = () => {
        set.delete(done)
        signal.removeEventListener('abort', done)
        resolve()
      }
      set.add(done)
      signal.addEventListener('abort', done, { once: true })
    })
  }

  private latestSeq(category: Category): number {
    const db = this.dbs.get(category)
    return db ? (firstKeyOf(db, true)?.[0] ?? 0) : 0
  }

  private wake(category: Category): void {
    for (const w of [...(this.waiters.get(category) ?? [])]) w()
  }

  categoryStats(category: Category): CategoryCounters {
    return this.stats_.get(category)
  }

  stats(): BufferStats {
    return this.stats_.total()
  }

  async shutdown(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const set of this.waiters.values()) for (const w of [...set]) w()
    const env = this.env
    this.env = null
    if (env) await env.close()
  }
}
