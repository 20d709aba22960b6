/**
 * The metadata store (metadata.ts) in the `meta` schema of the DuckDB file: one object per
 * concern over the same `Db`, every change through its write connection. Opened beside the
 * engine on the same file, or alone (`ferry workspace ...` while no service runs).
 */
import { Accounts } from './accounts.js'
import { Dashboards } from './dashboards.js'
import type { Db } from './db.js'
import { EnvVariables } from './env-vars.js'
import { Labels } from './labels.js'
import { Notes } from './notes.js'
import type { MetadataStore } from './metadata.js'
import { Replays } from './replays.js'
import { RetentionOverrides } from './retention-overrides.js'

export class DuckDbMetadata implements MetadataStore {
  readonly accounts: Accounts
  readonly dashboards: Dashboards
  readonly notes: Notes
  readonly labels: Labels
  readonly envVariables: EnvVariables
  readonly replays: Replays
  readonly retentionOverrides: RetentionOverrides

  constructor(db: Db, replayMaxBytes: number) {
    this.accounts = new Accounts(db)
    this.dashboards = new Dashboards(db)
    this.notes = new Notes(db)
    this.labels = new Labels(db)
    this.envVariables = new EnvVariables(db)
    this.replays = new Replays(db, replayMaxBytes)
    this.retentionOverrides = new RetentionOverrides(db)
  }
}
