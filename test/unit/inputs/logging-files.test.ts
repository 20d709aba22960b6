import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { expand, globToRegExp } from '../../../src/inputs/logging/glob.js'
import { PositionStore } from '../../../src/inputs/logging/positions.js'
import { readInputFiles } from '../../../src/inputs/conf/load.js'
import { INPUT_KINDS } from '../../../src/inputs/kinds.js'

test('globs: * stays in one segment, ** crosses them, ignore drops by path or name', () => {
  assert.ok(globToRegExp('/var/log/*.log').test('/var/log/a.log'))
  assert.ok(!globToRegExp('/var/log/*.log').test('/var/log/x/a.log'))
  assert.ok(globToRegExp('/var/**/a.log').test('/var/log/x/a.log'))
  assert.ok(globToRegExp('app-[0-9].log').test('app-3.log'))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-glob-'))
  fs.mkdirSync(path.join(dir, 'sub'))
  for (const f of ['a.log', 'b.log', 'c.txt', 'skip.log', 'sub/d.log'])
    fs.writeFileSync(path.join(dir, f), 'x\n')
  assert.deepEqual(expand([`${dir}/*.log`], ['skip.log']), [`${dir}/a.log`, `${dir}/b.log`])
  assert.deepEqual(expand([`${dir}/**/*.log`], [`${dir}/*`]), [`${dir}/sub/d.log`])
})

test('positions survive a restart, keyed by path and inode', async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-pos-')), 'tail', 'p.json')
  const s = new PositionStore(file)
  s.set('/l/a.log', 7, 120)
  s.set('/l/b.log', 8, 5)
  s.keepOnly(new Set(['/l/a.log\u00007']))
  await s.save()
  const again = new PositionStore(file)
  assert.equal(again.get('/l/a.log', 7), 120)
  assert.equal(again.get('/l/a.log', 9), undefined)
  assert.equal(again.get('/l/b.log', 8), undefined)
  assert.ok(again.hasPath('/l/a.log'))
  assert.deepEqual(fs.readdirSync(path.dirname(file)), ['p.json'])
})

test("the inputs page's [[inputs.logging]] sample is a valid input file", () => {
  const readme = fs.readFileSync(new URL('../../../docs/inputs.md', import.meta.url), 'utf8')
  const block = /```toml\n(\[\[inputs\.logging\]\][\s\S]*?)```/.exec(readme)![1]!
  const errors: string[] = []
  const [c] = readInputFiles([write(block)], INPUT_KINDS, errors)
  assert.deepEqual(errors, [])
  assert.deepEqual(
    [c!.conf.source, c!.conf.multiline_match, c!.conf.ignore_dead_log, c!.conf.tags],
    ['nginx', '^\\d{4}-\\d{2}-\\d{2}', 3_600_000, { team: 'infra' }],
  )
})

test('logging keys are checked: encoding, regular expression', () => {
  const errors: string[] = []
  const f = write('[[inputs.logging]]\ncharacter_encoding = "ebcdic"\nmultiline_match = "("\n')
  readInputFiles([f], INPUT_KINDS, errors)
  assert.equal(errors.length, 2)
  assert.match(errors[0]!, /:inputs\.logging\.character_encoding: /)
  assert.match(errors[1]!, /:inputs\.logging\.multiline_match: not a regular expression/)
})

function write(text: string): string {
  const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-logconf-')), 'logging.conf')
  fs.writeFileSync(f, text)
  return f
}
