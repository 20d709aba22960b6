/** What the workspace's HTTP routes need. */
import type { IncomingMessage } from 'node:http'
import type { WorkspaceConfig } from '../../config/schema.js'
import type { Accounts, Workspace } from '../store/accounts.js'
import type { Catalog } from '../store/catalog.js'
import type { Dashboards } from '../store/dashboards.js'
import type { Db } from '../store/db.js'
import type { Labels } from '../store/labels.js'
import type { Notes } from '../store/notes.js'
import type { EnvVariables } from '../store/env-vars.js'
import type { Replays } from '../store/replays.js'
import type { Writer } from '../store/writer.js'
import type { UploadDecoder } from '../ingest/pool.js'
import type { IngestQuota } from '../ingest/quota.js'
import type { Admission } from '../ingest/admission.js'
import type { WorkspaceEvents } from '../events.js'
import type { KeyThrottle } from './key-throttle.js'

export interface WorkspaceDeps {
  config: WorkspaceConfig
  db: Db
  catalog: Catalog
  accounts: Accounts
  dashboards: Dashboards
  notes: Notes
  labels: Labels
  envVariables: EnvVariables
  replays: Replays
  writer: Writer
  decoder: UploadDecoder
  quota: IngestQuota
  /** The bound on upload bytes held between arrival and answer. */
  admission: Admission
  events: WorkspaceEvents
  /** Wrong API keys per client address (login form and DF-API-KEY). */
  keys: KeyThrottle
  /** Secret for the admin routes used by `ferry workspace ...` while the service runs. */
  adminSecret: string
}

export interface WorkspaceEnv {
  /** `client`: the address of the request an in-process call is made for (UI forwarding). */
  Bindings: { incoming?: IncomingMessage; client?: string }
  /** `apiKey`: the UI session's key; `keyId`: the id of the Open API request's key. */
  Variables: { traceId: string; workspace: Workspace; apiKey: string; keyId: string }
}
