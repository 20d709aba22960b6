/**
 * Where the workspace's tables live and how each kind is made: the one place that writes a
 * CREATE TABLE, so a single node and a cluster differ here only.
 *
 * Single node (`cluster` empty): plain `MergeTree` / `ReplacingMergeTree` tables, DDL on the
 * node reached.
 *
 * Cluster (`[workspace.clickhouse] cluster`): invariants
 * - Point tables: a `Replicated*MergeTree` local table in `<db>_local` on every node (ZooKeeper
 *   path per shard, `{shard}`/`{replica}` macros), and under the logical name in `<db>` a
 *   `Distributed` table over them. Queries and inserts name the Distributed table; inserts are
 *   synchronous (`insert_distributed_sync=1`), so an acknowledged insert is on a replica of
 *   every shard it touched, never in a node's local queue. Rows go to shards by a hash of
 *   their `time`: a body sent again is split into the same blocks, which the shards' replicated
 *   block dedupe drops (a window of `DEDUPE_BLOCKS` blocks per table and shard).
 * - Metadata tables are not sharded: one replicated table on every node (one ZooKeeper path,
 *   a replica per node), read and written on the node the instance talks to, so what an
 *   instance wrote it reads back at once (the client stays on one node, client.ts).
 * - DDL goes ON CLUSTER: on the local tables over `cluster` (ALTERs of replicated tables are
 *   done once per shard), on databases, Distributed and metadata tables over `nodes` (every
 *   node a shard of its own: ClickHouse refuses an ON CLUSTER ALTER of a non-replicated table
 *   over replicated shards). A statement whose hosts are not all done within `ddlWaitMs`
 *   (`[workspace.clickhouse] ddl_wait`; a node down or slow) is taken as done and told to the
 *   `onUnfinished` listener (counted and logged): the live nodes did it, and a node that comes
 *   back runs what it missed from the queue (an insert it takes before that fails, 503, and
 *   the agent sends the body again).
 */
import type { ClickHouseClient } from './client.js'
import { alreadyExists, onCluster, tableEngine } from './layout-sql.js'
import {
  DDL_WAIT_MS,
  DEDUPE_BLOCKS,
  type ClusterNames,
  type DataTable,
  type DdlWaitListener,
  type MetaTableSpec,
} from './layout-types.js'
import { DAY, SID } from './series-table.js'
import { chIdent, chString } from './sql.js'

/** ClickHouse's TIMEOUT_EXCEEDED: an ON CLUSTER statement some host has not run yet. */
const DDL_UNFINISHED = 159

export class TableLayout {
  onUnfinished: DdlWaitListener = () => undefined

  constructor(
    private readonly client: ClickHouseClient,
    readonly cluster: ClusterNames | null,
    private readonly timeoutMs: number,
    private readonly ddlWaitMs = DDL_WAIT_MS,
  ) {}

  /** The database holding the rows of `db`'s tables (the same one on a single node). */
  local(db: string): string {
    return this.cluster ? `${db}_local` : db
  }

  /**
   * Settings of an insert into a point table. Block dedupe drops a block identical to one
   * stored before, which for points stamped on arrival (`timed` false) could be another body
   * sent within the same millisecond: those are judged by their package id only, as on one
   * node (dedupe.ts).
   */
  insertSettings(timed: boolean): Record<string, number> {
    if (!this.cluster) return {}
    return timed
      ? { insert_distributed_sync: 1 }
      : { insert_distributed_sync: 1, insert_deduplicate: 0 }
  }

  /** Where `system.parts` of every shard is read (one replica each). */
  get parts(): string {
    return this.cluster ? `cluster(${chString(this.cluster.data)}, system.parts)` : 'system.parts'
  }

  /** A database, and on a cluster, for point tables, the database of their local tables. */
  async createDatabase(db: string, holds: 'points' | 'meta'): Promise<void> {
    await this.run(
      `CREATE DATABASE IF NOT EXISTS ${chIdent(db)}${onCluster(this.cluster, 'nodes')}`,
    )
    if (this.cluster && holds === 'points')
      await this.run(
        `CREATE DATABASE IF NOT EXISTS ${chIdent(this.local(db))}${onCluster(this.cluster, 'nodes')}`,
      )
  }

  /** A point table (and, on a cluster, its local tables and the Distributed table over them). */
  async createDataTable(t: DataTable): Promise<void> {
    const local = `${chIdent(this.local(t.database))}.${chIdent(t.name)}`
    const engine = tableEngine(
      this.cluster,
      t.engine ?? 'MergeTree',
      `{shard}/${this.local(t.database)}/${t.name}`,
    )
    const settings = this.cluster
      ? ` SETTINGS replicated_deduplication_window = ${DEDUPE_BLOCKS}`
      : ''
    await this.run(
      `CREATE TABLE IF NOT EXISTS ${local}${onCluster(this.cluster, 'data')} (${t.columns}) ENGINE = ${engine}
       PARTITION BY ${t.partitionBy} ORDER BY ${t.orderBy}${settings}`,
    )
    if (!this.cluster) return
    const args = [chString(this.cluster.data), chString(this.local(t.database)), chString(t.name)]
    await this.run(
      `CREATE TABLE IF NOT EXISTS ${chIdent(t.database)}.${chIdent(t.name)}${onCluster(this.cluster, 'nodes')}
       AS ${local} ENGINE = Distributed(${args.join(', ')}, ${t.shardBy ?? 'intHash64(`time`)'})`,
    )
  }

  /**
   * The two tables of a metric table in the series layout (series-table.ts): its points under
   * `name` in `database`, its series rows in `seriesDb`, both by day and, on a cluster, sharded
   * by the series id, so a series' points and rows are on one shard. The points are sorted by
   * series then time: a filter on tags reads the ranges of its series only.
   */
  async createSeriesTables(database: string, seriesDb: string, name: string): Promise<void> {
    const sid = chIdent(SID)
    await this.createDatabase(seriesDb, 'points')
    await this.createDataTable({
      database: seriesDb,
      name,
      columns: `${sid} UInt64, ${chIdent(DAY)} Date`,
      partitionBy: chIdent(DAY),
      orderBy: sid,
      shardBy: sid,
      engine: 'ReplacingMergeTree',
    })
    await this.createDataTable({
      database,
      name,
      columns: `\`time\` Int64, ${sid} UInt64`,
      partitionBy: 'toDate(intDiv(`time`, 1000000000))',
      orderBy: `(${sid}, \`time\`)`,
      shardBy: sid,
    })
  }

  /** A metadata table: on a cluster, one replica on every node, never sharded. */
  async createMetaTable(t: MetaTableSpec): Promise<void> {
    const engine = tableEngine(
      this.cluster,
      `ReplacingMergeTree`,
      `meta/${t.database}/${t.name}`,
      t.version,
    )
    await this.run(
      `CREATE TABLE IF NOT EXISTS ${chIdent(t.database)}.${chIdent(t.name)}${onCluster(this.cluster, 'nodes')}
       (${t.columns}) ENGINE = ${engine} ORDER BY (${t.orderBy})`,
    )
  }

  /**
   * `ALTER TABLE ... <change>` of a point table on every node: the local tables first, then
   * the Distributed table. An "already exists" from the local tables (another instance won) is
   * rethrown after the Distributed table has the column too.
   */
  async alterDataTable(db: string, table: string, change: string): Promise<void> {
    const name = chIdent(table)
    let lost: unknown = null
    try {
      await this.run(
        `ALTER TABLE ${chIdent(this.local(db))}.${name}${onCluster(this.cluster, 'data')} ${change}`,
      )
    } catch (e) {
      if (!this.cluster || !alreadyExists(e)) throw e
      lost = e
    }
    if (this.cluster) {
      await this.run(
        `ALTER TABLE ${chIdent(db)}.${name}${onCluster(this.cluster, 'nodes')} ${change}`,
      ).catch((e: unknown) => {
        if (!alreadyExists(e)) throw e
      })
    }
    if (lost) throw lost
  }

  /** Drops one partition of a point table on every shard. */
  dropPartition(db: string, table: string, partition: string): Promise<void> {
    const ref = `${chIdent(this.local(db))}.${chIdent(table)}`
    return this.run(
      `ALTER TABLE ${ref}${onCluster(this.cluster, 'data')} DROP PARTITION ${chString(partition)}`,
    )
  }

  private async run(sql: string): Promise<void> {
    if (!this.cluster) return this.client.command(sql, { timeoutMs: this.timeoutMs })
    const settings = { distributed_ddl_task_timeout: Math.max(1, Math.ceil(this.ddlWaitMs / 1000)) }
    const started = Date.now()
    try {
      await this.client.command(sql, { timeoutMs: this.timeoutMs, settings })
    } catch (e) {
      if ((e as { chCode?: number }).chCode !== DDL_UNFINISHED) throw e
      this.onUnfinished(sql.replace(/\s+/g, ' ').slice(0, 200), Date.now() - started)
    }
  }
}
