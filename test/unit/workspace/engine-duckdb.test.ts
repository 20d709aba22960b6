/** DuckDB passes the storage engine contract, each case on a fresh database file. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import { DuckDbEngine } from '../../../src/workspace/store/duckdb-engine.js'
import { storageContract } from './engine-contract.js'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-engine-'))
after(() => fs.rmSync(root, { recursive: true, force: true }))
let n = 0

storageContract('duckdb', () =>
  DuckDbEngine.open({
    dir: path.join(root, String(n++)),
    memoryLimit: 256 * 1024 * 1024,
    threads: 1,
    maxPendingPoints: 100_000,
    commitMaxPoints: 10_000,
    dedupeWindowMs: 3_600_000,
  }),
)
