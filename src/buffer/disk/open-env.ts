/**
 * Opens the disk buffer's LMDB environment and its sub-databases: one per category (binary
 * records under `[seq, receivedAt, points, bytes]` keys), `meta` (positions.ts) and `dead`
 * (dead-letters.ts).
 */
import fs from 'node:fs'
import { open, type Database, type RootDatabase } from 'lmdb'
import { CATEGORY_NAMES, type Category } from '../../shared/category.js'
import type { Key } from './keys.js'
import { mapSizeFor } from './map-size.js'
import type { DiskBufferOptions } from './types.js'

/** The environment at `opts.path`, created with its directory when absent. */
export function openEnv(opts: DiskBufferOptions): RootDatabase {
  fs.mkdirSync(opts.path, { recursive: true })
  return open({
    path: opts.path,
    maxDbs: 16,
    pageSize: 16384,
    mapSize: mapSizeFor(opts),
    // A directory whatever its name looks like (lmdb takes `buffer.old` for a file name).
    noSubdir: false,
    // `async` durability: a commit is acknowledged when visible; the flush follows it.
    ...(opts.durability === 'async' ? { separateFlushed: true } : {}),
  })
}

/** Opens each category's sub-database into `dbs`. */
export function openCategories(env: RootDatabase, dbs: Map<Category, Database<Buffer, Key>>) {
  for (const c of CATEGORY_NAMES) {
    dbs.set(c, env.openDB<Buffer, Key>({ name: `cat:${c}`, encoding: 'binary' }))
  }
}
