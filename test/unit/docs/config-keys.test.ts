/** docs/config-keys.md is the schema's: regenerated with UPDATE_DOCS=1 (npm run docs:config). */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { renderConfigKeys } from '../../helpers/config-keys-doc.js'

const conf = new URL('../../../conf.d/ferry.conf', import.meta.url)
const page = new URL('../../../docs/config-keys.md', import.meta.url)

test('docs/config-keys.md lists every config key as the schema and shipped file say', () => {
  const want = renderConfigKeys(fs.readFileSync(conf, 'utf8'))
  if (process.env.UPDATE_DOCS === '1') fs.writeFileSync(page, want)
  assert.equal(fs.readFileSync(page, 'utf8'), want, 'run npm run docs:config')
})

test('every key has a meaning from the shipped file', () => {
  const rows = renderConfigKeys(fs.readFileSync(conf, 'utf8'))
    .split('\n')
    .filter((l) => l.startsWith('| `'))
  assert.ok(rows.length > 100, `${rows.length} keys`)
  const bare = rows.filter((l) => / \| +\|$/.test(l))
  assert.deepEqual(bare, [])
})
