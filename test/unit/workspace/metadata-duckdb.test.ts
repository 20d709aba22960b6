/** DuckDB's metadata store passes the metadata contract, each case on a fresh database file. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import { Db } from '../../../src/workspace/store/db.js'
import { DuckDbMetadata } from '../../../src/workspace/store/duckdb-metadata.js'
import { metadataContract, REPLAY_BOUND } from './metadata-contract.js'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-meta-'))
after(() => fs.rmSync(root, { recursive: true, force: true }))
let n = 0

metadataContract('duckdb', async () => {
  const db = await Db.open({
    dir: path.join(root, String(n++)),
    memoryLimit: 256 << 20,
    threads: 1,
  })
  return { meta: new DuckDbMetadata(db, REPLAY_BOUND), close: () => db.close() }
})
