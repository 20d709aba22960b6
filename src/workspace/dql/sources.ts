/**
 * The tables a statement reads. A name is one table. `*` and `re('..')` read every table of the
 * namespace whose source name matches (the whole name, as the hosted DQL's regexps do), as one
 * table: their columns merged by name (a column's type widens as the catalog's does), and the
 * namespace's classifying key (`source` for logs, `class` for objects, `service` for traces)
 * filled with each table's own name where the tables do not store it, so `BY source` works.
 * No table matching is an answer without data, not an error.
 */
import type { Category } from '../../shared/category.js'
import type { Query } from './ast.js'
import { bad } from './invalid.js'
import type { UnionMember } from './plan.js'
import { widen, type Column, type TableInfo } from '../store/catalog.js'
import type { TableCatalog as Catalog } from '../store/engine.js'
import { tableName } from '../store/names.js'

const CLASS_KEY: Partial<Record<Category, string>> = {
  logging: 'source',
  keyevent: 'source',
  rum: 'source',
  network: 'source',
  object: 'class',
  custom_object: 'class',
  tracing: 'service',
  profiling: 'service',
  security: 'category',
}

export interface Sources {
  table: string
  info: TableInfo
  union: UnionMember[] | null
  /** False when nothing was ever written there: nothing to run. */
  exists: boolean
}

const EMPTY = (phys: string): TableInfo => ({ phys, columns: [], byName: new Map(), parts: null })

function merge(members: UnionMember[], classKey: string | undefined): TableInfo {
  const info = EMPTY('')
  const add = (name: string, c: Omit<Column, 'phys' | 'name'>) => {
    const have = info.byName.get(name)
    if (have) return void (have.type = widen(have.type, c.type))
    const col: Column = { name, kind: c.kind, type: c.type, phys: `c${info.columns.length}` }
    info.columns.push(col)
    info.byName.set(name, col)
  }
  for (const m of members) for (const c of m.info.columns) add(c.name, c)
  if (classKey && !info.byName.has(classKey)) {
    add(classKey, { kind: 'tag', type: 'VARCHAR' })
    for (const m of members) m.constants[classKey] = m.table.slice(m.table.indexOf('::') + 2)
  }
  return info
}

function pattern(re: string): RegExp {
  try {
    return new RegExp(`^(?:${re})$`)
  } catch (e) {
    throw bad(`invalid source pattern ${JSON.stringify(re)}: ${(e as Error).message}`)
  }
}

export function resolveSources(catalog: Catalog, workspaceId: string, q: Query): Sources {
  const table = tableName(q.category, q.source)
  if (q.sourceRe === null) {
    const known = catalog.table(workspaceId, table)
    return { table, info: known ?? EMPTY(table), union: null, exists: known !== undefined }
  }
  const prefix = tableName(q.category, '')
  const re = pattern(q.sourceRe)
  const members: UnionMember[] = catalog
    .tableNames(workspaceId)
    .filter((t) => t.startsWith(prefix) && re.test(t.slice(prefix.length)))
    .sort()
    .map((t) => ({ table: t, info: catalog.table(workspaceId, t)!, constants: {} }))
  const info = merge(members, CLASS_KEY[q.category])
  return { table, info, union: members, exists: members.length > 0 }
}
