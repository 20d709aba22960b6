/**
 * `[decode] max_young_generation` and `max_old_generation`: validated where the config is read,
 * and given to each decode worker as V8 heap limits that V8 really applies (a worker reports
 * its heap limit as old plus young generation).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { Worker, type ResourceLimits } from 'node:worker_threads'
import { loadConfig } from '../../../src/config/load.js'
import { FerryError } from '../../../src/errors.js'
import { workerHeapLimits } from '../../../src/ingest/pool.js'

const MiB = 2 ** 20

function decodeSection(text: string, env: NodeJS.ProcessEnv = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-heap-'))
  const file = path.join(dir, 'ferry.conf')
  fs.writeFileSync(file, `[decode]\n${text}\n`)
  try {
    return loadConfig(file, env).config.decode
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The heap limit a worker started with `limits` reports, in MiB. */
function limitInWorker(limits: ResourceLimits): Promise<number> {
  const code =
    'const v8 = require("node:v8"); const { parentPort } = require("node:worker_threads");' +
    'parentPort.postMessage(v8.getHeapStatistics().heap_size_limit)'
  const w = new Worker(code, { eval: true, resourceLimits: limits })
  return new Promise((resolve, reject) => {
    w.once('message', (bytes: number) => void w.terminate().then(() => resolve(bytes / MiB)))
    w.once('error', reject)
  })
}

test('defaults: a 6 MiB young and a 512 MiB old generation per worker', async () => {
  const limits = workerHeapLimits(decodeSection(''))
  assert.deepEqual(limits, { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 512 })
  assert.equal(await limitInWorker(limits), 518)
})

test('file and ENV values reach the worker; 0 leaves V8 its own default', async () => {
  const fromFile = decodeSection('max_young_generation = "3MiB"\nmax_old_generation = "40MiB"')
  assert.equal(await limitInWorker(workerHeapLimits(fromFile)), 43)
  const fromEnv = decodeSection('', { ENV_DECODE_MAX_OLD_GENERATION: '64MiB' })
  assert.equal(fromEnv.max_old_generation, 64 * MiB)
  assert.deepEqual(
    workerHeapLimits(decodeSection('max_young_generation = 0\nmax_old_generation = 0')),
    {},
  )
})

test('a limit under 1 MiB is refused with file:key', () => {
  for (const key of ['max_young_generation', 'max_old_generation']) {
    assert.throws(
      () => decodeSection(`${key} = "512KiB"`),
      (e: unknown) =>
        e instanceof FerryError &&
        e.code === 'configInvalid' &&
        new RegExp(`ferry\\.conf:decode\\.${key}: 0 or at least 1MiB`).test(e.message),
    )
  }
})
