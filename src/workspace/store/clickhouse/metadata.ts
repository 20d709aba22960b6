/**
 * The metadata store (../metadata.ts) on ClickHouse, in `<prefix>_meta`: what lets several
 * workspace processes share one set of workspaces, keys and dashboards while each keeps only
 * caches. Opening creates the database and tables when missing.
 */
import type { MetadataStore } from '../metadata.js'
import { ClickHouseAccounts } from './accounts.js'
import type { ClickHouseClient } from './client.js'
import { ClickHouseDashboards } from './dashboards.js'
import type { ClusterNames } from './layout-types.js'
import { TableLayout } from './layout.js'
import { ClickHouseEnvVariables, ClickHouseLabels } from './labels.js'
import { ClickHouseNotes } from './notes.js'
import { MetaTables } from './meta-tables.js'
import { ClickHouseReplays } from './replays.js'
import { ClickHouseRetentionOverrides } from './retention-overrides.js'

export interface ClickHouseMetadataOptions {
  /** The database prefix: metadata lives in `<prefix>_meta`. */
  prefix: string
  replayMaxBytes: number
  timeoutMs: number
  /** Metadata replicated on every node of these clusters (layout.ts); none: one node. */
  cluster?: ClusterNames | null
  /** How long an ON CLUSTER statement waits for every node (layout.ts). */
  ddlWaitMs?: number
}

export class ClickHouseMetadata implements MetadataStore {
  readonly accounts: ClickHouseAccounts
  readonly dashboards: ClickHouseDashboards
  readonly notes: ClickHouseNotes
  readonly labels: ClickHouseLabels
  readonly envVariables: ClickHouseEnvVariables
  readonly replays: ClickHouseReplays
  readonly retentionOverrides: ClickHouseRetentionOverrides

  private constructor(tables: MetaTables, replayMaxBytes: number) {
    this.accounts = new ClickHouseAccounts(tables)
    this.dashboards = new ClickHouseDashboards(tables)
    this.notes = new ClickHouseNotes(tables)
    this.labels = new ClickHouseLabels(tables)
    this.envVariables = new ClickHouseEnvVariables(tables)
    this.replays = new ClickHouseReplays(tables, replayMaxBytes)
    this.retentionOverrides = new ClickHouseRetentionOverrides(tables)
  }

  static async open(
    client: ClickHouseClient,
    o: ClickHouseMetadataOptions,
  ): Promise<ClickHouseMetadata> {
    const layout = new TableLayout(client, o.cluster ?? null, o.timeoutMs, o.ddlWaitMs)
    const tables = new MetaTables(client, `${o.prefix}_meta`, o.timeoutMs, layout)
    await tables.create()
    return new ClickHouseMetadata(tables, o.replayMaxBytes)
  }
}
