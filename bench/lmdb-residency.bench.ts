/**
 * `npm run bench:lmdb-residency`: what keeps the disk buffer's LMDB pages resident. An LMDB file
 * opened with the disk buffer's options (16 KiB pages, one map of `mapSizeFor`'s size) takes
 * records of BENCH_RECORD_KB (420 KB, a 1000-point batch) in a writer-ahead-of-reader pattern:
 * each round commits 4 records and reads and removes the 2 oldest, as an uploader that stores
 * half of what is accepted, for BENCH_ROUNDS (600) rounds; then the backlog is read and removed
 * to empty; then 300 rounds with the reader keeping up. After each phase it prints this
 * process's RssFile (node's binary and libraries, about 40 MB, plus the LMDB pages resident)
 * and the file's size. `BENCH_REMAP=1` opens with lmdb-js's `remapChunks` (maps of 16-page
 * chunks instead of one map) for comparison.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { open, type Database } from 'lmdb'
import { mapSizeFor } from '../src/buffer/disk/map-size.js'

const RECORD = Buffer.alloc(Number(process.env.BENCH_RECORD_KB ?? 420) * 1000, 7)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 600)
const REMAP = process.env.BENCH_REMAP === '1'
const MB = 2 ** 20
const GB = 1024 ** 3

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-lmdb-'))
const env = open({
  path: dir,
  maxDbs: 16,
  pageSize: 16384,
  mapSize: mapSizeFor({ maxBytesPerCategory: GB, maxTotalBytes: 4 * GB }),
  noSubdir: false,
  remapChunks: REMAP,
  // Durability does not change what is mapped; syncing each commit would only make it slow.
  noSync: true,
})
const db: Database<Buffer, number> = env.openDB({ name: 'cat:metric', encoding: 'binary' })
let written = 0
let read = 0
let checksum = 0

function rssFileMb(): number {
  const status = fs.readFileSync('/proc/self/status', 'utf8')
  return Number(/RssFile:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024
}

function report(phase: string, started: number) {
  const file = fs.statSync(path.join(dir, 'data.mdb')).size / MB
  const buffered = ((written - read) * RECORD.length) / MB
  console.log(
    `${phase}: RssFile ${rssFileMb().toFixed(0)} MB, file ${file.toFixed(0)} MB, buffered ${buffered.toFixed(0)} MB, ${(performance.now() - started).toFixed(0)} ms`,
  )
}

/** Reads (touching every byte, as the uploader's CRC check does) and removes up to `n`. */
async function consume(n: number): Promise<number> {
  const keys: number[] = []
  for (const { key, value } of db.getRange({ start: read + 1, limit: n })) {
    checksum = (checksum + value[value.length - 1]) | 0
    keys.push(key)
  }
  if (keys.length) await db.transaction(() => keys.forEach((k) => db.remove(k)))
  read += keys.length
  return keys.length
}

async function produce(n: number): Promise<void> {
  await db.transaction(() => {
    for (let i = 0; i < n; i++) db.put(++written, RECORD)
  })
}

async function mainBench() {
  console.log(`lmdb residency: ${RECORD.length} byte records, remapChunks ${REMAP}`)
  const t0 = performance.now()
  report('opened', t0)
  for (let i = 0; i < ROUNDS; i++) await produce(4).then(() => consume(2))
  report('backlog grown', t0)
  while (await consume(8));
  report('drained', t0)
  for (let i = 0; i < ROUNDS / 2; i++) await produce(2).then(() => consume(2))
  report('kept up after', t0)
  await env.close()
  fs.rmSync(dir, { recursive: true, force: true })
}

mainBench().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
