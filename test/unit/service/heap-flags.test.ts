/**
 * Every way the agent is shipped starts it with the same V8 heap flags (`src/shared/heap-flags.ts`):
 * the systemd unit, the container image and `npm start` (and the malloc settings of
 * `src/shared/malloc.ts`).
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
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

/**
 * The main thread's semi-space flag overrides a worker's own limits until it is released:
 * a worker asking for a 48 MiB young generation got 4 MiB of new space (two 2 MiB semi-spaces).
 */
test('once the flags are released, a worker thread sizes its own young generation', () => {
  const flagsModule = new URL('../../../src/shared/heap-flags.js', import.meta.url).href
  const script = `
    import { Worker } from 'node:worker_threads'
    import { releaseThreadHeapFlags } from '${flagsModule}'
    const inWorker = "import v8 from 'node:v8'; import { parentPort } from 'node:worker_threads'; " +
      "const keep = []; " +
      "for (let i = 0; i < 2e6; i++) { keep.push({ i }); if (keep.length > 2e5) keep.length = 0 } " +
      "const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space'); " +
      "parentPort.postMessage(s.space_size / 2 ** 20)"
    const newSpace = () => new Promise((resolve) => {
      const w = new Worker(inWorker, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 48 } })
      w.once('message', (mb) => w.terminate().then(() => resolve(mb)))
    })
    const before = await newSpace()
    releaseThreadHeapFlags()
    console.log(JSON.stringify([before, await newSpace()]))
  `
  const out = execFileSync(
    process.execPath,
    [...NODE_HEAP_FLAGS, '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  )
  const [before, after] = JSON.parse(out) as [number, number]
  assert.equal(before, 4)
  assert.equal(after, 32)
})
