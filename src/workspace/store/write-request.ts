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
}

export interface WriteResult {
  stored: number
  duplicate: boolean
}
