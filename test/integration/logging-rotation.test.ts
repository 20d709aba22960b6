/**
 * The logging input under a live writer: rotation by rename and by copy-truncate, a binary file
 * and an overlong line. Every line written reaches `emit` exactly once.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import type { InputEnv } from '../../src/inputs/input.js'
import { TailInput, type TailSettings } from '../../src/inputs/logging/tail-input.js'
import type { Point } from '../../src/shared/point.js'
import { waitFor } from '../helpers/sink-server.js'

interface Seen {
  messages: string[]
  filenames: Set<string>
  warnings: string[]
  truncated: number
}

function setup(dir: string) {
  const seen: Seen = { messages: [], filenames: new Set(), warnings: [], truncated: 0 }
  const events = {
    truncated: (_: string, n: number) => (seen.truncated += n),
    warned: (_: string, m: string, d: { file: string }) => seen.warnings.push(`${m}: ${d.file}`),
    failed: (_: string, e: Error) => seen.warnings.push(e.message),
  }
  const env = { dataDir: dir, events } as unknown as InputEnv
  const s: TailSettings = {
    name: 'logging',
    logfiles: [path.join(dir, '*.log')],
    ignore: [],
    source: 'app',
    service: 'svc',
    pipeline: 'app',
    fromBeginning: true,
    ignoreDeadLog: 0,
    pollMs: 20,
    storeFile: path.join(dir, 'tail', 'app.json'),
    tail: {
      encoding: 'utf-8',
      maxLength: 64,
      multiline: null,
      removeAnsi: false,
      chunkBytes: 4096,
      batch: 100,
    },
  }
  const emit = async (points: Point[]) => {
    for (const p of points) {
      assert.equal(p.name, 'app')
      assert.equal(p.tags.find((t) => t.key === 'service')?.value, 'svc')
      seen.filenames.add(p.tags.find((t) => t.key === 'filename')!.value)
      seen.messages.push(String(p.fields.find((f) => f.key === 'message')!.value))
    }
  }
  return { input: new TailInput(s, env), emit, seen }
}

const line = (n: number) => `line ${n}`
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

test('rotation by rename and copy-truncate under a writer: every line once', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-tail-'))
  const log = path.join(dir, 'app.log')
  fs.writeFileSync(path.join(dir, 'blob.log'), Buffer.from([1, 2, 0, 3, 10]))
  const { input, emit, seen } = setup(dir)
  await input.start(emit)
  let n = 0
  const write = async (count: number) => {
    for (let i = 0; i < count; i++) {
      fs.appendFileSync(log, `${line(n++)}\n`)
      if (i % 50 === 0) await pause(1)
    }
  }
  try {
    await write(1500)
    fs.renameSync(log, `${log}.1`) // rotation by rename: the writer opens a new file
    await write(1500)
    await waitFor(() => seen.messages.length === n, 10_000, 'caught up before copy-truncate')
    fs.copyFileSync(log, `${log}.2`)
    fs.truncateSync(log, 0) // copy-truncate: the same file starts over
    await write(1500)
    fs.appendFileSync(log, `${'x'.repeat(100)}\n${line(n++)}\n`)
    await waitFor(() => seen.messages.length === n + 1, 10_000, 'every line')
  } finally {
    await input.shutdown()
  }
  const expected = Array.from({ length: n }, (_, i) => line(i))
  expected.splice(n - 1, 0, 'x'.repeat(64))
  assert.deepEqual(seen.messages, expected)
  assert.equal(seen.truncated, 1)
  assert.deepEqual([...seen.filenames], ['app.log'])
  assert.deepEqual(seen.warnings, [`binary file skipped: ${path.join(dir, 'blob.log')}`])
})

test('a batch that could not be stored is read again, and a restart resumes at the position', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-tail-'))
  const log = path.join(dir, 'app.log')
  fs.writeFileSync(log, Array.from({ length: 250 }, (_, i) => `${line(i)}\n`).join(''))
  const first = setup(dir)
  let failures = 2
  await first.input.start(async (points) => {
    if (failures-- > 0) throw new Error('buffer full')
    await first.emit(points)
  })
  await waitFor(() => first.seen.messages.length === 250, 10_000, 'every line')
  await first.input.shutdown()
  assert.deepEqual(
    first.seen.messages,
    Array.from({ length: 250 }, (_, i) => line(i)),
  )
  assert.deepEqual(
    first.seen.warnings,
    ['buffer full', 'buffer full'].map((m) => `${log}: ${m}`),
  )
  fs.appendFileSync(log, `${line(250)}\n`)
  const second = setup(dir)
  await second.input.start(second.emit)
  await waitFor(() => second.seen.messages.length === 1, 10_000, 'the new line')
  await pause(100)
  await second.input.shutdown()
  assert.deepEqual(second.seen.messages, [line(250)])
})
