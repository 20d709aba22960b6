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
import type { Batch, BatchBuffer, BufferStats, DeadLetter, Plan, StoredBatch } from '../buffer.js'
import { fits, victimCategory, type Held } from './budget.js'
import { DeadLetters } from './dead-letters.js'
import { LedgerWriter, readLedger, type LedgerData } from './ledger.js'
import { Positions } from './positions.js'
import { CategoryStats, type CategoryCounters } from './stats.js'
import { decodeRecord, encodeRecord, RecordError, recordSize } from './record.js'
import type { BufferEvents, DiskBufferOptions } from './types.js'

type Key = [number, number, number, number]

function firstKeyOf<K extends Key | number>(
  db: Database<unknown, K>,
  reverse = false,
): K | undefined {
  for (const k of db.getKeys({ limit: 1, reverse })) return k
  return undefined
}

export class DiskBuffer implements BatchBuffer {
  readonly name = 'disk-buffer'
  private env: RootDatabase | null = null
  private dbs = new Map<Category, Database<Buffer, Key>>()
  private positions: Positions | null = null
  private identity = ''
  private dead: DeadLetters | null = null
  private seq = 1
  private readonly stats_ = new CategoryStats()
  private readonly waiters = new Map<Category, Set<() => void>>()
  /** Highest seq pushed per category, for the ledger. */
  private readonly lastSeqOf = new Map<Category, number>()
  private ledger: LedgerWriter | null = null
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
      // A directory whatever its name looks like (lmdb takes `buffer.old` for a file name).
      noSubdir: false,
      // `async` durability: a commit is acknowledged when visible; the flush follows it.
      ...(this.opts.durability === 'async' ? { separateFlushed: true } : {}),
    })
    this.positions = new Positions(this.env.openDB({ name: 'meta' }))
    const before = this.positions.existingIdentity()
    this.identity = await this.positions.identity()
    this.dead = new DeadLetters(this.env.openDB<DeadLetter, number>({ name: 'dead' }))
    for (const c of CATEGORY_NAMES) {
      this.dbs.set(c, this.env.openDB<Buffer, Key>({ name: `cat:${c}`, encoding: 'binary' }))
    }
    await this.verifyAll()
    // Pruned records leave no key behind, so the next seq must also pass every cursor (or a new
    // record could hide behind one and never be sent) and every planned window (positions.ts).
    this.seq = Math.max(this.seq, this.positions.highestSeen() + 1)
    this.checkLedger(before)
    this.ledger = new LedgerWriter(this.opts.path, () => this.ledgerData())
    this.ledger.write()
  }

  /**
   * Refuses a buffer that holds less than its ledger says it did (a lost meta page rolls LMDB
   * back silently; a truncated file opens empty): it must be salvaged, not used and overwritten.
   */
  private checkLedger(identityBefore: string | null): void {
    const led = readLedger(this.opts.path)
    if (!led) return
    const why =
      identityBefore !== led.identity
        ? `its identity is ${identityBefore ?? 'gone'}, the ledger says ${led.identity}`
        : led.lastSeq >= this.seq
          ? `it ends before seq ${led.lastSeq}, which the ledger says was handed out`
          : null
    if (why) throw new FerryError('bufferDamaged', `buffer at ${this.opts.path} is damaged: ${why}`)
  }

  private ledgerData(): LedgerData {
    const categories: LedgerData['categories'] = {}
    for (const c of CATEGORY_NAMES) {
      const s = this.stats_.get(c)
      const lastSeq = this.lastSeqOf.get(c) ?? 0
      if (s.batches || lastSeq) categories[c] = { records: s.batches, points: s.points, lastSeq }
    }
    return {
      version: 1,
      identity: this.identity,
      lastSeq: this.seq - 1,
      positions: this.positions!.entries(),
      categories,
      writtenAt: Date.now(),
    }
  }

  /** Start-up scan: verify every record, drop damaged ones, rebuild statistics and `seq`. */
  private async verifyAll(): Promise<void> {
    for (const [category, db] of this.dbs) {
      const damaged: Key[] = []
      for (const { key, value } of db.getRange()) {
        this.seq = Math.max(this.seq, key[0] + 1)
        this.lastSeqOf.set(category, Math.max(this.lastSeqOf.get(category) ?? 0, key[0]))
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
    await db
      .transaction(() => victims.forEach((k) => db.remove(k)))
      .catch((e) => Promise.reject(this.storageError('drop', e)))
    this.ledger?.touch()
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
    if (!(await this.makeRoom(batch, recordSize(batch)))) return
    const seq = this.seq++
    const record = encodeRecord(batch, seq)
    const key: Key = [seq, batch.receivedAt, batch.points, record.length]
    const db = this.dbs.get(batch.category)!
    const started = performance.now()
    try {
      await db.put(key, record)
      if (this.opts.durability === 'sync') await db.flushed
    } catch (e) {
      throw this.storageError('commit', e)
    }
    this.events.committed((performance.now() - started) / 1000)
    this.stats_.add(batch.category, record.length, batch.points, batch.receivedAt)
    this.lastSeqOf.set(batch.category, seq)
    this.ledger?.touch()
    this.wake(batch.category)
  }

  /** A storage failure as a retryable 503, reported once here (EIO, ENOSPC, map full). */
  private storageError(op: string, e: unknown): FerryError {
    const err = new FerryError(
      'bufferUnavailable',
      `disk buffer ${op} failed: ${(e as Error).message}; retry later`,
      { retryAfter: 5, cause: e },
    )
    this.events.storageFailed(op, err.message)
    return err
  }

  /** Random, created with the buffer and kept for its lifetime (see positions.ts). */
  get id(): string {
    return this.identity
  }

  /**
   * Records after `afterSeq`, damaged ones skipped: up to `maxBytes` (at least one record), or,
   * with `throughSeq`, exactly those up to that seq whatever their size.
   */
  read(category: Category, afterSeq: number, maxBytes: number, throughSeq?: number): StoredBatch[] {
    const db = this.dbs.get(category)
    if (!db) return []
    const out: StoredBatch[] = []
    let bytes = 0
    const end = throughSeq === undefined ? undefined : [throughSeq + 1]
    for (const { key, value } of db.getRange({ start: [afterSeq + 1], end })) {
      if (throughSeq === undefined && out.length && bytes + key[3] > maxBytes) break
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
    await db
      .transaction(() => keys.forEach((k) => db.remove(k)))
      .catch((e) => Promise.reject(this.storageError('prune', e)))
    this.ledger?.touch()
    for (const k of keys) this.stats_.remove(category, k[3], k[2])
    this.stats_.resetOldest(category, firstKeyOf(db)?.[1])
  }

  /** Every record with `seq <= cursor` is done for the reader `name`. */
  getCursor(name: string): number {
    return this.positions?.cursor(name) ?? 0
  }

  async setCursor(name: string, seq: number): Promise<void> {
    await this.positions!.setCursor(name, seq).catch((e) =>
      Promise.reject(this.storageError('cursor', e)),
    )
    this.ledger?.touch()
  }

  /** The window the reader `name` is delivering, if it has not finished it. */
  getPlan(name: string): Plan | null {
    return this.positions?.plan(name) ?? null
  }

  async setPlan(name: string, plan: Plan): Promise<void> {
    await this.positions!.setPlan(name, plan).catch((e) =>
      Promise.reject(this.storageError('plan', e)),
    )
    this.ledger?.touch()
  }

  /** Keeps a permanently refused batch's description and the upstream's answer (bounded). */
  async addDeadLetter(d: DeadLetter, max: number): Promise<void> {
    await this.dead!.add(d, max)
  }

  deadLetters(): DeadLetter[] {
    return this.dead?.all() ?? []
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
    this.ledger?.flush()
    const env = this.env
    this.env = null
    if (env) await env.close()
  }
}
