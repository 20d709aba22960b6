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
 * - A record's payload memory is the caller's again once `push` settles (lmdb-js reads it at
 *   commit, not at `put`); a window's memory is the buffer's again once `release`d.
 */
import type { Database, RootDatabase } from 'lmdb'
import { FerryError } from '../../errors.js'
import type { Category } from '../../shared/category.js'
import type { Batch, BatchBuffer, BufferStats, DeadLetter, Plan, StoredBatch } from '../buffer.js'
import { Capacity } from './capacity.js'
import { DeadLetters } from './dead-letters.js'
import { firstKeyOf, type Key } from './keys.js'
import { openCategories, openEnv } from './open-env.js'
import { LedgerWriter, ledgerMismatch, readLedger, snapshot, type LedgerData } from './ledger.js'
import { Positions } from './positions.js'
import { CategoryStats, type CategoryCounters } from './stats.js'
import { storageError } from './storage-error.js'
import { encodeRecord, recordSize } from './record.js'
import { readRecords } from './read.js'
import { verifyRecords } from './verify.js'
import type { BufferEvents, DiskBufferOptions } from './types.js'
import { Waiters } from './waiters.js'

export class DiskBuffer implements BatchBuffer {
  readonly name = 'disk-buffer'
  private env: RootDatabase | null = null
  private dbs = new Map<Category, Database<Buffer, Key>>()
  private positions: Positions | null = null
  private identity = ''
  private dead: DeadLetters | null = null
  private seq = 1
  private readonly stats_ = new CategoryStats()
  private readonly waiters = new Waiters()
  private readonly capacity: Capacity
  /** Highest seq pushed per category, for the ledger. */
  private readonly lastSeqOf = new Map<Category, number>()
  private ledger: LedgerWriter | null = null
  private closed = false
  /** Windows' buffers lent to readers and not yet released (each goes back once, `release`). */
  private readonly lent = new WeakSet<ArrayBuffer>()

  constructor(
    private readonly opts: DiskBufferOptions,
    private readonly events: BufferEvents,
  ) {
    this.capacity = new Capacity({
      opts,
      stats: this.stats_,
      events,
      db: (c) => this.dbs.get(c)!,
      remove: (db, keys, op) => this.remove(db, keys, op),
    })
  }

  async start(): Promise<void> {
    this.env = openEnv(this.opts)
    this.positions = new Positions(this.env.openDB({ name: 'meta' }))
    const before = this.positions.existingIdentity()
    this.identity = await this.positions.identity()
    this.dead = new DeadLetters(this.env.openDB<DeadLetter, number>({ name: 'dead' }))
    openCategories(this.env, this.dbs)
    const highest = await verifyRecords(this.dbs, this.stats_, this.lastSeqOf, this.events)
    // Pruned records leave no key behind, so the next seq must also pass every cursor (or a new
    // record could hide behind one and never be sent) and every planned window (positions.ts).
    this.seq = Math.max(highest, this.positions.highestSeen()) + 1
    const mismatch = ledgerMismatch(readLedger(this.opts.path), before, this.seq)
    if (mismatch)
      throw new FerryError('bufferDamaged', `buffer at ${this.opts.path} is damaged: ${mismatch}`)
    this.ledger = new LedgerWriter(this.opts.path, () => this.ledgerData())
    this.ledger.write()
  }

  private ledgerData(): LedgerData {
    return snapshot(
      this.identity,
      this.seq - 1,
      this.positions!.entries(),
      this.stats_,
      this.lastSeqOf,
    )
  }

  /** Removes keys in one transaction; a storage failure becomes the buffer's 503. */
  private async remove(db: Database<Buffer, Key>, keys: Key[], op: string): Promise<void> {
    await db
      .transaction(() => keys.forEach((k) => db.remove(k)))
      .catch((e) => Promise.reject(storageError(this.events, op, e)))
    this.ledger?.touch()
  }

  async push(batch: Batch): Promise<void> {
    if (this.closed || !this.env) throw new FerryError('shuttingDown', 'the agent is shutting down')
    if (!(await this.capacity.makeRoom(batch, recordSize(batch)))) return
    const seq = this.seq++
    const record = encodeRecord(batch, seq)
    const key: Key = [seq, batch.receivedAt, batch.points, record.length]
    const db = this.dbs.get(batch.category)!
    const started = performance.now()
    try {
      await db.put(key, record)
      if (this.opts.durability === 'sync') await db.flushed
    } catch (e) {
      throw storageError(this.events, 'commit', e)
    }
    this.events.committed((performance.now() - started) / 1000)
    this.stats_.add(batch.category, record.length, batch.points, batch.receivedAt)
    this.lastSeqOf.set(batch.category, seq)
    this.ledger?.touch()
    this.waiters.wake(batch.category)
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
    const damaged = (seq: number, why: string) => this.events.recordDamaged(category, seq, why)
    const pool = this.opts.buffers
    const take = pool && ((n: number) => this.lend(pool.take(n)))
    return readRecords(db, afterSeq, maxBytes, throughSeq, damaged, take)
  }

  private lend(taken: Uint8Array): Uint8Array {
    this.lent.add(taken.buffer as ArrayBuffer)
    return taken
  }

  /** The reader is done with a window `read` gave: its memory serves the next one. */
  release(batches: StoredBatch[]): void {
    const buffer = batches[0]?.payload.buffer as ArrayBuffer | undefined
    if (buffer && this.lent.delete(buffer)) this.opts.buffers?.give(buffer)
  }

  /** Removes records every upstream is done with (`seq <= upTo`). */
  async prune(category: Category, upTo: number): Promise<void> {
    const db = this.dbs.get(category)!
    const keys = [...db.getKeys({ end: [upTo + 1] })]
    if (!keys.length) return
    await this.remove(db, keys, 'prune')
    for (const k of keys) this.stats_.remove(category, k[3], k[2])
    this.stats_.resetOldest(category, firstKeyOf(db)?.[1])
  }

  /** Every record with `seq <= cursor` is done for the reader `name`. */
  getCursor(name: string): number {
    return this.positions?.cursor(name) ?? 0
  }

  async setCursor(name: string, seq: number): Promise<void> {
    await this.positions!.setCursor(name, seq).catch((e) =>
      Promise.reject(storageError(this.events, 'cursor', e)),
    )
    this.ledger?.touch()
  }

  /** The window the reader `name` is delivering, if it has not finished it. */
  getPlan(name: string): Plan | null {
    return this.positions?.plan(name) ?? null
  }

  async setPlan(name: string, plan: Plan): Promise<void> {
    await this.positions!.setPlan(name, plan).catch((e) =>
      Promise.reject(storageError(this.events, 'plan', e)),
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
    const db = this.dbs.get(category)
    const latest = () => (db ? (firstKeyOf(db, true)?.[0] ?? 0) : 0)
    return this.waiters.wait(category, () => latest() > afterSeq, signal)
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
    this.waiters.wakeAll()
    this.ledger?.flush()
    const env = this.env
    this.env = null
    if (env) await env.close()
  }
}
