/**
 * The DuckDB storage engine: one database file (db.ts), the column catalog mirrored in memory
 * (catalog.ts), the group-commit writer (writer.ts) and the retention sweep (retention.ts)
 * behind the StorageEngine boundary (engine.ts). The metadata of the same file is reached
 * through `DuckDbMetadata` (duckdb-metadata.ts); nothing outside store/ touches the parts.
 * Open probes the data (probe.ts): a database whose blocks cannot be read does not start.
 */
import { FerryError } from '../../errors.js'
import { Catalog } from './catalog.js'
import { Db, type DamageListener, type DbOptions, type Rows } from './db.js'
import { duckDbObjects } from './duckdb-objects.js'
import type { QueryParam, StorageEngine } from './engine.js'
import { qualified } from './names.js'
import { probeDatabase } from './probe.js'
import { sweep, type RetentionConfig, type SweepResult } from './retention.js'
import { Writer, type WriterOptions } from './writer.js'
import type { WriteRequest, WriteResult } from './write-request.js'
import type { ObjectPage, ObjectQuery } from './objects.js'

/** DuckDB reports type and binding problems of a query as these; they are the query's fault. */
const USER_ERRORS = /^(Binder|Conversion|Invalid Input|Out of Range|Parser) Error/

export class DuckDbEngine implements StorageEngine {
  readonly dialect = 'duckdb'

  private constructor(
    readonly db: Db,
    readonly catalog: Catalog,
    readonly writer: Writer,
  ) {}

  static async open(opts: DbOptions & WriterOptions): Promise<DuckDbEngine> {
    const db = await Db.open(opts)
    const catalog = new Catalog()
    try {
      await catalog.load(async (sql) => (await db.query(sql)).rows)
      await probeDatabase(db)
    } catch (e) {
      await db.close()
      throw e
    }
    return new DuckDbEngine(db, catalog, new Writer(db, catalog, opts))
  }

  ingest(req: WriteRequest): Promise<WriteResult> {
    return this.writer.submit(req)
  }

  tableRef(workspaceId: string, table: string): string | undefined {
    const info = this.catalog.table(workspaceId, table)
    return info && qualified(workspaceId, info.phys)
  }

  async query(sql: string, params: QueryParam[] = [], timeoutMs?: number): Promise<Rows> {
    try {
      return await this.db.query(sql, params, timeoutMs)
    } catch (e) {
      const msg = (e as Error).message
      if (!(e instanceof FerryError) && USER_ERRORS.test(msg))
        throw new FerryError('queryInvalid', msg, { cause: e })
      throw e
    }
  }

  objects(q: ObjectQuery): Promise<ObjectPage> {
    return duckDbObjects(this.db, this.catalog, q)
  }

  /** Told each time a call fails on a damaged database file (after the start probe). */
  onDamage(listener: DamageListener): void {
    this.db.onDamage = listener
  }

  retain(cfg: RetentionConfig, nowMs?: number): Promise<SweepResult[]> {
    return sweep(this.db, this.catalog, cfg, nowMs, () => this.writer.series.reset())
  }

  async close(): Promise<void> {
    await this.writer.drain()
    await this.db.close()
  }
}
