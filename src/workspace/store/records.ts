/**
 * The metadata store's records: what its interfaces (metadata.ts) take and give, whichever
 * store (DuckDB or ClickHouse) keeps them.
 */
import type { Category } from '../../shared/category.js'

export interface Workspace {
  id: string
  name: string
  token: string
  createdAt: number
}

export interface ApiKeyInfo {
  id: string
  workspace: string
  name: string
  prefix: string
  createdAt: number
  revokedAt: number | null
}

export interface KeyOwner {
  workspace: Workspace
  keyId: string
}

export interface DashboardAttrs {
  identifier: string
  mapping: unknown[]
  isPublic: number
  permissionSet: string[]
  readPermissionSet: string[]
  /** `manual` when created, `import` once a template was imported into it. */
  createdWay: string
}

export interface Dashboard extends DashboardAttrs {
  uuid: string
  num: number | null
  workspaceUUID: string
  name: string
  desc: string
  tagNames: string[]
  extend: Record<string, unknown>
  templateInfo: Record<string, unknown>
  /** Seconds, as the hosted service reports them. */
  createAt: number
  updateAt: number
  creator: string
  updator: string
}

export type DashboardInput = Partial<
  Omit<Dashboard, 'num' | 'workspaceUUID' | 'createAt' | 'updateAt' | 'creator' | 'updator'>
>

export interface DashboardFilter {
  search: string
  /** Dashboards carrying at least one of these tags; empty: all. */
  tagNames: string[]
}

export interface Note {
  uuid: string
  num: number
  workspaceUUID: string
  name: string
  chartUUIDs: string[]
  extend: Record<string, unknown>
  /** Seconds, as the hosted service reports them. */
  createAt: number
  updateAt: number
  creator: string
  updator: string
}

export interface NoteInput {
  name: string
  chartUUIDs?: string[]
  extend?: Record<string, unknown>
}

export interface LabelRequest {
  object_class: string
  object_name: string
  key: string
  value: string
  labels?: string[]
}

export interface ReplayInput {
  fields: Record<string, string>
  segment: Uint8Array
}

export interface ReplayInfo {
  id: string
  app_id: string
  session_id: string
  view_id: string
  start: number
  end: number
  received_at: number
  size: number
  fields: Record<string, string>
}

export interface RetentionOverride {
  workspaceId: string
  category: Category
  keepMs: number
}

/** Overrides by workspace id, then category: what one sweep reads once. */
export type OverrideMap = Map<string, Map<Category, number>>
