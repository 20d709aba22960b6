/**
 * A full disk under LMDB: the awaited write meets the commit failure, and lmdb's other
 * rejections of that same commit are recognised and settled, so nothing is left unhandled
 * (the agent logged "unhandled Commit failed" for each). Needs root for a small tmpfs.
 */
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'

const CHILD = new URL('../../fixtures/lmdb/full-disk.ts', import.meta.url).pathname

test('a failed commit leaves no unhandled rejection behind', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-lmdb-full-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'ignore' })
  } catch {
    fs.rmSync(dir, { recursive: true, force: true })
    return t.skip('mounting a tmpfs needs root')
  }
  try {
    // Its exit status is not looked at: lmdb may abort the child after the answer is out, and
    // now and then (heap damage in its native writer on ENOSPC) before: then it runs again.
    let line = ''
    let stderr = ''
    for (let attempt = 0; attempt < 5 && !line.startsWith('{'); attempt++) {
      const db = path.join(dir, `db${attempt}`)
      const out = spawnSync(process.execPath, ['--import', 'tsx', CHILD, db], {
        encoding: 'utf8',
        timeout: 60_000,
      })
      fs.rmSync(db, { recursive: true, force: true })
      line = out.stdout.trim().split('\n').at(-1) ?? ''
      stderr = out.stderr
    }
    assert.ok(line.startsWith('{'), `no answer from the child: ${stderr.slice(-2000)}`)
    const r = JSON.parse(line) as {
      met: string
      unhandled: string[]
      echoes: number
    }
    assert.deepEqual([r.met, r.unhandled], ['commit failure', []])
    assert.ok(r.echoes >= 1, 'lmdb rejected the failed commit again, and it was recognised')
  } finally {
    execFileSync('umount', [dir])
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
