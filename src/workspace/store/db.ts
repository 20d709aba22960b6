/**
 * The workspace database: one DuckDB file. Writes (points and metadata) go through one
 * connection, one transaction at a time (`exclusive`); every query gets a connection of its
 * own, so reads run in parallel with writes and each can be interrupted on its own.
 * A call that fails because the file is damaged (damage.ts) is told to `onDamage` before the
 * error goes on to the caller: the service reports it, the store knows nothing of telemetry.
 */
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api'
import { FerryError } from '../../errors.js'
import { damagedError, damageMessage, isLockMessage } from './damage.js'
import { META_DDL } from './meta-ddl.js'
import { dropPackagesKey } from './packages.js'

export interface DbOptions {
  dir: string
  memoryLimit: number
  threads: number
}

export const DB_FILE = 'ferry.duckdb'

export type Row = unknown[]
export interface Rows {
  columns: string[]
  rows: Row[]
}

/** Called with DuckDB's message each time a call fails on a damaged database file. */
export type DamageListener = (message: string) => void

export class Db {
  private queue: Promise<unknown> = Promise.resolve()
  /** Told of every failure on damage; set once the service is wired (after the start probe). */
  onDamage: DamageListener | null = null

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly writer: DuckDBConnection,
  ) {}

  static async open(opts: DbOptions): Promise<Db> {
    fs.mkdirSync(opts.dir, { recursive: true, mode: 0o700 })
    const file = path.join(opts.dir, DB_FILE)
    const config: Record<string, string> = {
      // MiB as configured: DuckDB reads `MB` as 10^6 bytes.
      memory_limit: `${Math.floor(opts.memoryLimit / 1024 / 1024)}MiB`,
      temp_directory: path.join(opts.dir, 'tmp'),
    }
    if (opts.threads > 0) config.threads = String(opts.threads)
    let instance: DuckDBInstance
    try {
      instance = await DuckDBInstance.create(file, config)
    } catch (e) {
      const msg = (e as Error).message
      const damage = damageMessage(e)
      if (damage) throw damagedError(damage, e)
      if (isLockMessage(msg)) throw new FerryError('databaseLocked', `${file}: ${msg}`)
      throw new FerryError('storageFailed', `cannot open ${file}: ${msg}`, { cause: e })
    }
    const writer = await instance.connect()
    for (const stmt of META_DDL) await writer.run(stmt)
    await dropPackagesKey(writer)
    return new Db(instance, writer)
  }

  /** Runs `fn` with the write connection, after every earlier `exclusive` call has finished. */
  exclusive<T>(fn: (con: DuckDBConnection) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => fn(this.writer)).catch((e: unknown) => this.failed(e))
    this.queue = next.catch(() => undefined)
    return next
  }

  /** One write statement outside a batch (metadata changes). */
  execute(sql: string, params: DuckDBValue[] = []): Promise<void> {
    return this.exclusive(async (con) => void (await con.run(sql, params)))
  }

  /** A read on a connection of its own, interrupted after `timeoutMs`. */
  async query(sql: string, params: DuckDBValue[] = [], timeoutMs = 30_000): Promise<Rows> {
    const con = await this.instance.connect()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      con.interrupt()
    }, timeoutMs)
    try {
      const reader = await con.runAndReadAll(sql, params)
      return { columns: reader.columnNames(), rows: reader.getRows() as Row[] }
    } catch (e) {
      if (timedOut)
        throw new FerryError('queryTimeout', `query interrupted after ${timeoutMs} ms`, {
          cause: e,
        })
      return this.failed(e)
    } finally {
      clearTimeout(timer)
      con.closeSync()
    }
  }

  /** Rethrows `e`, after telling `onDamage` if it says the file is damaged. */
  private failed(e: unknown): never {
    const message = this.onDamage && damageMessage(e)
    if (message) this.onDamage!(message)
    throw e
  }

  async close(): Promise<void> {
    await this.queue
    this.writer.closeSync()
    this.instance.closeSync()
  }
}
