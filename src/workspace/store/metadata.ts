/**
 * The metadata boundary of the workspace, beside StorageEngine (engine.ts): everything a
 * workspace process knows that is not a point (workspaces, data tokens, API keys, dashboards,
 * object labels, retention overrides, session replays, RUM variables). Routes, the CLI and the
 * retention admin reach metadata only through these interfaces, so a process keeps nothing but
 * caches and several processes can share one store. The contract, tested once for every
 * implementation (test/unit/workspace/metadata-contract.ts):
 * - Workspace names and data tokens are unique; an API key is found by its hash only, and a
 *   revoked key finds nothing. Every change is visible to the next read of the same store.
 * - Dashboards and notes are listed by their newest change first, filtered by a
 *   case-insensitive part of the name; a dashboard's name is unique in its workspace.
 * - A label record is keyed by (workspace, class, name, key, value); posting again replaces it.
 * - An env variable set to null is removed; an application's own value wins over app_id ''.
 * - Replays are kept per workspace within the store's byte bound, the oldest dropped first.
 * Package ids are not here: they are written in the same unit as the points they stand for,
 * so they belong to `StorageEngine.ingest`.
 */
import type { Category } from '../../shared/category.js'
import type {
  ApiKeyInfo,
  Dashboard,
  DashboardFilter,
  DashboardInput,
  KeyOwner,
  LabelRequest,
  Note,
  NoteInput,
  OverrideMap,
  ReplayInfo,
  ReplayInput,
  RetentionOverride,
  Workspace,
} from './records.js'

export interface AccountStore {
  /** Entries in the API key cache (bounded). */
  readonly keyCacheSize: number
  list(): Promise<Workspace[]>
  /** Throws `objectNotFound` for an unknown name. */
  byName(name: string): Promise<Workspace>
  byToken(token: string): Promise<Workspace | undefined>
  byApiKey(key: string): Promise<Workspace | undefined>
  /** The workspace of an API key and the key's id (the Open API's `creator`/`updator`). */
  ownerOfKey(key: string): Promise<KeyOwner | undefined>
  create(name: string): Promise<Workspace>
  ensure(name: string): Promise<Workspace>
  createKey(workspace: string, name: string): Promise<{ info: ApiKeyInfo; key: string }>
  listKeys(workspace: string): Promise<ApiKeyInfo[]>
  revokeKey(id: string): Promise<void>
}

export interface DashboardStore {
  list(
    ws: string,
    f: DashboardFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: Dashboard[]; total: number }>
  get(ws: string, id: string): Promise<Dashboard>
  /** Refuses (`duplicateName`) a name or an id the workspace already has. */
  create(ws: string, input: DashboardInput, by: string): Promise<Dashboard>
  modify(ws: string, id: string, input: DashboardInput, by: string): Promise<Dashboard>
  /** Returns what was deleted. */
  delete(ws: string, id: string): Promise<Dashboard>
}

export interface NoteStore {
  list(ws: string, search: string): Promise<Note[]>
  get(ws: string, id: string): Promise<Note>
  create(ws: string, input: NoteInput, by: string): Promise<Note>
  modify(ws: string, id: string, input: NoteInput, by: string): Promise<Note>
  delete(ws: string, id: string): Promise<Note>
}

export interface LabelStore {
  set(ws: string, r: LabelRequest): Promise<string>
  delete(ws: string, r: LabelRequest): Promise<void>
  forClass(ws: string, objectClass: string): Promise<Map<string, string[]>>
}

export interface EnvVariableStore {
  forApp(workspaceId: string, appId: string): Promise<Record<string, string>>
  set(workspaceId: string, appId: string, key: string, value: string | null): Promise<void>
}

export interface ReplayStore {
  store(workspaceId: string, r: ReplayInput): Promise<string>
  list(workspaceId: string, offset: number, limit: number): Promise<ReplayInfo[]>
}

export interface RetentionOverrideStore {
  set(workspaceId: string, category: Category, keepMs: number): Promise<void>
  clear(workspaceId: string, category: Category): Promise<boolean>
  list(workspaceId?: string): Promise<RetentionOverride[]>
  map(): Promise<OverrideMap>
}

export interface MetadataStore {
  readonly accounts: AccountStore
  readonly dashboards: DashboardStore
  readonly notes: NoteStore
  readonly labels: LabelStore
  readonly envVariables: EnvVariableStore
  readonly replays: ReplayStore
  readonly retentionOverrides: RetentionOverrideStore
}
