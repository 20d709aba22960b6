/** What the workspace's HTTP routes need. */
import type { WorkspaceConfig } from '../../config/schema.js'
import type { StorageEngine } from '../store/engine.js'
import type {
  AccountStore,
  DashboardStore,
  NoteStore,
  EnvVariableStore,
  LabelStore,
  ReplayStore,
  RetentionOverrideStore,
} from '../store/metadata.js'
import type { UploadDecoder } from '../ingest/pool.js'
import type { IngestQuota } from '../ingest/quota.js'
import type { Admission } from '../ingest/admission.js'
import type { WorkspaceEvents } from '../events.js'
import type { KeyThrottle } from './key-throttle.js'

export interface WorkspaceDeps {
  config: WorkspaceConfig
  /** Points: ingest, catalog, queries, object lists (the one door to the data). */
  engine: StorageEngine
  /** The parts of the metadata store (store/metadata.ts) the routes use. */
  accounts: AccountStore
  dashboards: DashboardStore
  notes: NoteStore
  labels: LabelStore
  envVariables: EnvVariableStore
  replays: ReplayStore
  retentionOverrides: RetentionOverrideStore
  decoder: UploadDecoder
  quota: IngestQuota
  /** The bound on upload bytes held between arrival and answer. */
  admission: Admission
  events: WorkspaceEvents
  /** Wrong API keys per client address (login form and DF-API-KEY). */
  keys: KeyThrottle
  /** Why the storage service is taken for down (ping says `degraded`), or null. */
  storageDown: () => string | null
  /** Secret for the admin routes used by `ferry workspace ...` while the service runs. */
  adminSecret: string
}

export type { WorkspaceEnv } from './env.js'
