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
 * - Every write goes through the remapper's gate (remap.ts), which reopens the environment
 *   between writes to give back the pages reads made resident; nothing holds a handle of the
 *   environment across an await, so each use finds the current one.
 */
import type { Database } from 'lmdb'
import { FerryError } from '../../errors.js'
import type { Category } from '../../shared/category.js'
import type { Batch, BatchBuffer, BufferStats, DeadLetter, Plan, StoredBatch } from '../buffer.js'
import { Capacity } from './capacity.js'
import { firstKeyOf, type Key } from './keys.js'
import { EnvHandles } from './handles.js'
import { WindowLender } from './lender.js'
import { LedgerWriter, snapshot, type LedgerData } from './ledger.js'
import { CategoryStats, type CategoryCounters } from './stats.js'
import { storageError } from './storage-error.js'
import { encodeRecord, recordSize } from './record.js'
import { readRecords } from './read.js'
import { Remapper } from './remap.js'
import { settle } from './verify.js'
import type { BufferEvents, DiskBufferOptions } from './types.js'
import { Waiters } from './waiters.js'

export class DiskBuffer implements BatchBuffer {
  readonly name = 'disk-buffer'
  private readonly h: EnvHandles
  private identity = ''
  private seq = 1
  private readonly stats_ = new CategoryStats()
  private readonly waiters = new Waiters()
  private readonly capacity: Capacity
  /** Highest seq pushed per category, for the ledger. */
  private readonly lastSeqOf = new Map<Category, number>()
  private ledger: LedgerWriter | null = null
  private closed = false
  private readonly lender: WindowLender
  private readonly remapper: Remapper

  constructor(
    private readonly opts: DiskBufferOptions,
    private readonly events: BufferEvents,
  ) {
    this.h = new EnvHandles(opts)
    this.lender = new WindowLender(opts.buffers)
    this.capacity = new Capacity({
      opts,
      stats: this.stats_,
      events,
      db: (c) => this.h.dbs.get(c)!,
      remove: (db, keys, op) => this.remove(db, keys, op),
    })
    this.remapper = new Remapper(
      opts.maxResident ?? 0,
      this.h,
      (bytes, seconds) => events.remapped?.(bytes, seconds),
      (e) => void storageError(events, 'remap', e),
    )
  }

  async start(): Promise<void> {
    this.h.open()
    const found = await settle(this.h, this.opts.path, this.stats_, this.lastSeqOf, this.events)
    this.identity = found.identity
    this.seq = found.seq
    this.ledger = new LedgerWriter(this.opts.path, () => this.ledgerData())
    this.ledger.write()
  }

  private ledgerData(): LedgerData {
    return snapshot(
      this.identity,
      this.seq - 1,
      this.h.positions!.entries(),
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

  push(batch: Batch): Promise<void> {
    return this.remapper.write(() => this.pushNow(batch))
  }

  private async pushNow(batch: Batch): Promise<void> {
    if (this.closed || !this.h.env)
      throw new FerryError('shuttingDown', 'the agent is shutting down')
    if (!(await this.capacity.makeRoom(batch, recordSize(batch)))) return
    const seq = this.seq++
    const record = encodeRecord(batch, seq)
    const key: Key = [seq, batch.receivedAt, batch.points, record.length]
    const db = this.h.dbs.get(batch.category)!
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
    const db = this.h.dbs.get(category)
    if (!db) return []
    const damaged = (seq: number, why: string) => this.events.recordDamaged(category, seq, why)
    const batches = readRecords(db, afterSeq, maxBytes, throughSeq, damaged, this.lender.take)
    this.remapper.read(batches.reduce((n, b) => n + b.payload.length, 0))
    return batches
  }

  /** The reader is done with a window `read` gave: its memory serves the next one. */
  release(batches: StoredBatch[]): void {
    this.lender.release(batches)
  }

  /** Removes records every upstream is done with (`seq <= upTo`). */
  prune(category: Category, upTo: number): Promise<void> {
    return this.remapper.write(() => this.pruneNow(category, upTo))
  }

  private async pruneNow(category: Category, upTo: number): Promise<void> {
    const db = this.h.dbs.get(category)!
    const keys = [...db.getKeys({ end: [upTo + 1] })]
    if (!keys.length) return
    await this.remove(db, keys, 'prune')
    for (const k of keys) this.stats_.remove(category, k[3], k[2])
    this.stats_.resetOldest(category, firstKeyOf(db)?.[1])
  }

  /** Every record with `seq <= cursor` is done for the reader `name`. */
  getCursor(name: string): number {
    return this.h.positions?.cursor(name) ?? 0
  }

  setCursor(name: string, seq: number): Promise<void> {
    return this.position('cursor', () => this.h.positions!.setCursor(name, seq))
  }

  /** A cursor or plan write; a storage failure becomes the buffer's 503. */
  private async position(op: string, write: () => Promise<void>): Promise<void> {
    await this.remapper.write(write).catch((e) => Promise.reject(storageError(this.events, op, e)))
    this.ledger?.touch()
  }

  /** The window the reader `name` is delivering, if it has not finished it. */
  getPlan(name: string): Plan | null {
    return this.h.positions?.plan(name) ?? null
  }

  setPlan(name: string, plan: Plan): Promise<void> {
    return this.position('plan', () => this.h.positions!.setPlan(name, plan))
  }

  /** Keeps a permanently refused batch's description and the upstream's answer (bounded). */
  async addDeadLetter(d: DeadLetter, max: number): Promise<void> {
    await this.remapper.write(() => this.h.dead!.add(d, max))
  }

  deadLetters(): DeadLetter[] {
    return this.h.dead?.all() ?? []
  }

  /** Resolves when a record newer than `afterSeq` exists, or when `signal` aborts. */
  waitFor(category: Category, afterSeq: number, signal: AbortSignal): Promise<void> {
    const latest = () => {
      const db = this.h.dbs.get(category)
      return db ? (firstKeyOf(db, true)?.[0] ?? 0) : 0
    }
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
    await this.remapper.stop()
    this.waiters.wakeAll()
    this.ledger?.flush()
    await this.h.close()
  }
}
