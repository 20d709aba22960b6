/**
 * Reads and writes of the metadata tables (meta-ddl.ts) on ClickHouse: `create` makes the
 * database and tables when missing (every process may, at once: all of it is IF NOT EXISTS),
 * `put` writes rows as new versions through RowBinary, `select` reads the newest version of
 * each key with the deleted left out.
 */
import type { ClickHouseClient } from './client.js'
import type { TableLayout } from './layout.js'
import { META_TABLES, type ChType, type MetaTable } from './meta-ddl.js'
import { RowBinaryWriter } from './rowbinary.js'
import { bindParams, chIdent, type Literal } from './sql.js'

export type MetaValue = string | number | bigint | null | Uint8Array

function writeValue(w: RowBinaryWriter, type: ChType, v: MetaValue): void {
  if (type === 'String') return v instanceof Uint8Array ? w.binary(v) : w.string(String(v ?? ''))
  if (type === 'UInt8') return w.uint8(Number(v ?? 0))
  if (type === 'UInt64') return w.uint64(BigInt((v as number) ?? 0))
  if (type === 'Int64') return w.int64(BigInt((v as number) ?? 0))
  w.nullable(v, (x) => w.int64(BigInt(x as number)))
}

export class MetaTables {
  private lastVersion = 0n

  constructor(
    private readonly client: ClickHouseClient,
    readonly database: string,
    private readonly timeoutMs: number,
    private readonly layout: TableLayout,
  ) {}

  ref(table: MetaTable): string {
    return `${chIdent(this.database)}.${chIdent(table.name)}`
  }

  async create(): Promise<void> {
    await this.layout.createDatabase(this.database, 'meta')
    for (const t of Object.values(META_TABLES)) {
      await this.layout.createMetaTable({
        database: this.database,
        name: t.name,
        columns: t.columns.map(([n, type]) => `${chIdent(n)} ${type}`).join(', '),
        version: 'version',
        orderBy: t.key.map(chIdent).join(', '),
      })
    }
  }

  /** A version above every earlier one of this process (µs of the clock). */
  private version(): bigint {
    const now = BigInt(Date.now()) * 1000n
    this.lastVersion = now > this.lastVersion ? now : this.lastVersion + 1n
    return this.lastVersion
  }

  /** Rows as new versions; `deleted` and `version` are added here. */
  async put(table: MetaTable, rows: MetaValue[][], deleted = false): Promise<void> {
    const w = new RowBinaryWriter()
    const n = table.columns.length - 2
    for (const row of rows) {
      for (let i = 0; i < n; i++) writeValue(w, table.columns[i][1], row[i])
      w.uint8(deleted ? 1 : 0)
      w.uint64(this.version())
    }
    const names = table.columns.map(([c]) => chIdent(c))
    await this.client.insert(this.ref(table), names, Buffer.from(w.bytes()), {
      timeoutMs: this.timeoutMs,
    })
  }

  /**
   * `columns` of the live rows matching `where` (with `$n` parameters), newest versions only;
   * `tail` follows the WHERE (ORDER BY, LIMIT).
   */
  async select(
    table: MetaTable,
    columns: string,
    where: string,
    params: Literal[] = [],
    tail = '',
  ): Promise<unknown[][]> {
    const cond = where ? ` AND (${where})` : ''
    const sql = `SELECT ${columns} FROM ${this.ref(table)} FINAL WHERE deleted = 0${cond} ${tail}`
    const r = await this.client.query(bindParams(sql, params), { timeoutMs: this.timeoutMs })
    return r.rows
  }
}
