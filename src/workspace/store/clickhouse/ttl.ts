/**
 * Retention by table `TTL`, on servers that have it (server-version.ts): each point table
 * expires its rows `keep` after their time, to the second, as ClickHouse merges its parts.
 * Invariants:
 * - One expression shape for every retention, "forever" included: the expiry is capped at the
 *   last second a DateTime holds (2106-02-07), so a long retention cannot wrap round to 1970
 *   and expire everything, and going back to forever needs no `REMOVE TTL` (which older TTL
 *   servers lack).
 * - A table's TTL is changed only when its retention changed: `MODIFY TTL` rewrites parts on
 *   newer servers. What each table has is read from `system.tables` the first time, then
 *   remembered by this process (another instance setting the same value changes nothing).
 */
import type { ClickHouseClient } from './client.js'
import { bindParams } from './sql.js'

/** The last second a DateTime can hold. */
const DATETIME_MAX = 4294967295

/** Seconds a row is kept; `keepMs <= 0` (forever) keeps it as long as a DateTime can count. */
const keepSeconds = (keepMs: number) => (keepMs > 0 ? Math.ceil(keepMs / 1000) : DATETIME_MAX)

export function ttlExpression(keepMs: number): string {
  return `toDateTime(least(intDiv(\`time\`, 1000000000) + ${keepSeconds(keepMs)}, ${DATETIME_MAX}))`
}

export function ttlStatement(ref: string, keepMs: number): string {
  return `ALTER TABLE ${ref} MODIFY TTL ${ttlExpression(keepMs)}`
}

export class TableTtl {
  /** Table ref -> the seconds its TTL keeps. */
  private readonly applied = new Map<string, number>()

  constructor(
    private readonly client: ClickHouseClient,
    private readonly timeoutMs: number,
  ) {}

  /** Sets `database.table`'s TTL to `keepMs` unless it has it already. */
  async apply(database: string, table: string, ref: string, keepMs: number): Promise<void> {
    const want = keepSeconds(keepMs)
    if (this.applied.get(ref) === want) return
    if (!(await this.has(database, table, want)))
      await this.client.command(ttlStatement(ref, keepMs), { timeoutMs: this.timeoutMs })
    this.applied.set(ref, want)
  }

  private async has(database: string, table: string, seconds: number): Promise<boolean> {
    const r = await this.client.query(
      bindParams('SELECT create_table_query FROM system.tables WHERE database = $1 AND name = $2', [
        database,
        table,
      ]),
      { timeoutMs: this.timeoutMs },
    )
    const ddl = String(r.rows[0]?.[0] ?? '')
    return ddl.includes(`+ ${seconds}, ${DATETIME_MAX})`)
  }
}
