/**
 * Every way the agent is shipped starts it with the same V8 heap flags (`src/shared/heap-flags.ts`):
 * the systemd unit, the container image and `npm start` (and the malloc settings of
 * `src/shared/malloc.ts`).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { NODE_HEAP_FLAGS } from '../../../src/shared/heap-flags.js'
import { MALLOC_TUNABLES } from '../../../src/shared/malloc.js'
import { unitFile } from '../../../src/service/unit.js'

const root = new URL('../../../', import.meta.url)
const read = (p: string) => fs.readFileSync(new URL(p, root), 'utf8')
const flags = NODE_HEAP_FLAGS.join(' ')

test('the service unit starts node with the heap flags and the malloc settings', () => {
  const unit = unitFile({
    node: '/usr/bin/node',
    main: '/opt/ferry/dist/src/main.js',
    user: 'ferry',
    configDir: '/etc/ferry',
    dataDir: '/var/lib/ferry',
  })
  assert.match(
    unit,
    new RegExp(`^ExecStart=/usr/bin/node ${flags} /opt/ferry/dist/src/main\\.js run `, 'm'),
  )
  assert.match(unit, new RegExp(`^Environment=GLIBC_TUNABLES=${MALLOC_TUNABLES}$`, 'm'))
})

test('the container image and npm start pass the same flags (npm start: the malloc settings too)', () => {
  const entry = JSON.stringify(['node', ...NODE_HEAP_FLAGS, 'dist/src/main.js'])
  assert.ok(read('Dockerfile').includes(`ENTRYPOINT ${entry.replaceAll(',', ', ')}`))
  const pkg = JSON.parse(read('package.json')) as { scripts: { start: string } }
  assert.equal(
    pkg.scripts.start,
    `GLIBC_TUNABLES=${MALLOC_TUNABLES} node ${flags} dist/src/main.js run`,
  )
})
