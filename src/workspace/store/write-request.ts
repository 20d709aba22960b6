/** What the writer takes and answers: one decoded body of one workspace. */
import type { Category } from '../../shared/category.js'
import type { TableBatch } from '../ingest/columns.js'

export interface WriteRequest {
  workspaceId: string
  category: Category
  tables: TableBatch[]
  /** Rows over all tables. */
  points: number
  pkgId: string | null
  /** The decompressed body's content fingerprint; absent when the caller has none. */
  fingerprint?: string | null
  /** Every point carried its own time (dedupe.ts: only such bodies are deduplicated by content). */
  timed?: boolean
}

export interface WriteResult {
  stored: number
  duplicate: boolean
  /** Why a duplicate was not stored: its id with the same content, or its content alone. */
  dedupe?: 'id' | 'content'
  /** Stored although its package id was stored before with other content. */
  reusedId?: boolean
}
