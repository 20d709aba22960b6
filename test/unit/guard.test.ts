/** The test-wide guard (test/setup/no-unhandled.mjs) fails a process that leaks a rejection. */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'

test('an unhandled rejection makes the process fail with its reason', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-guard-'))
  const script = path.join(dir, 'leak.mjs')
  fs.writeFileSync(script, "setTimeout(() => void Promise.reject(new Error('leaked')), 10)\n")
  const guard = new URL('../setup/no-unhandled.mjs', import.meta.url).pathname
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', guard, script], {
    encoding: 'utf8',
  })
  fs.rmSync(dir, { recursive: true, force: true })
  assert.equal(r.status, 1)
  assert.match(r.stderr, /^unhandled rejection: Error: leaked\n/)
  assert.match(r.stderr, /\n1 unhandled rejection\(s\) in this test file\n$/)
})
