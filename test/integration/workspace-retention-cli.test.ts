/**
 * A workspace's own retention through the real CLI: `ferry workspace retention set|clear|list`
 * on the database directly (no service), then through a running `ferry workspace`'s admin
 * routes, with its answers and errors exactly; and the background job applying each
 * workspace's own retention to it alone while the other keeps the global keys.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { after, before, test } from 'node:test'
import { CATEGORY_NAMES } from '../../src/shared/category.js'
import { poll } from '../helpers/workspace.js'
import { createWorkspaceData, type WorkspaceData } from '../helpers/workspace-process.js'

const run = promisify(execFile)
const MAIN = new URL('../../src/main.ts', import.meta.url).pathname
const HOUR_NS = 3_600_000_000_000n
const now = BigInt(Date.now()) * 1_000_000n
let data: WorkspaceData
let other = ''

async function ferry(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const port = data.current?.port ?? 0
  const env = { ...process.env, ENV_DATA_DIR: data.dir, ENV_WORKSPACE_LISTEN: `127.0.0.1:${port}` }
  const config = path.join(data.dir, 'ferry.conf')
  try {
    const r = await run(
      process.execPath,
      ['--import', 'tsx', MAIN, 'workspace', ...args, '--config', config],
      { env },
    )
    return { code: 0, ...r }
  } catch (e) {
    const r = e as { code: number; stdout: string; stderr: string }
    return { code: r.code, stdout: r.stdout, stderr: r.stderr }
  }
}

async function write(token: string, category: string, body: string): Promise<void> {
  const url = `${data.current!.url}/v1/write/${category}?token=${token}`
  const res = await fetch(url, { method: 'POST', body })
  assert.equal(res.status, 200, await res.text())
}

async function values(token: string, source: string): Promise<number[]> {
  const res = await fetch(`${data.current!.url}/v1/query/raw?token=${token}`, {
    method: 'POST',
    body: JSON.stringify({ queries: [{ query: `${source}:(v)`, disable_slimit: true }] }),
  })
  assert.equal(res.status, 200)
  const body = (await res.json()) as { content: { series: { values: unknown[][] }[] }[] }
  return body.content[0].series.flatMap((s) => s.values.map((v) => Number(v[1]))).sort()
}

before(() => {
  data = createWorkspaceData()
  // Metrics kept 30d and logs 1d globally; the job runs often so the test sees it.
  fs.writeFileSync(
    path.join(data.dir, 'ferry.conf'),
    '[workspace]\nretention_logging = "1d"\nretention_interval = "200ms"\n',
  )
})
after(async () => {
  await data.current?.stop()
  fs.rmSync(data.dir, { recursive: true, force: true })
})

test('set and list on the database while no service runs', async () => {
  assert.deepEqual(await ferry('retention', 'set', 'test', 'logging', 'forever'), {
    code: 0,
    stdout: 'test keeps logging forever\n',
    stderr: '',
  })
  assert.equal((await ferry('retention', 'list')).stdout, 'test\tlogging\tforever\n')
})

test('through the running service: set, list, errors', async () => {
  await data.start()
  const created = await ferry('create', 'other', '--json')
  other = (JSON.parse(created.stdout) as { workspace: { token: string } }).workspace.token
  assert.equal(
    (await ferry('retention', 'set', 'test', 'metric', '1h')).stdout,
    'test keeps metric 1h\n',
  )
  assert.deepEqual(
    JSON.parse((await ferry('retention', 'set', 'other', 'tracing', '36h', '--json')).stdout),
    {
      workspace: 'other',
      category: 'tracing',
      keepMs: 36 * 3_600_000,
    },
  )
  assert.equal(
    (await ferry('retention', 'list')).stdout,
    'other\ttracing\t36h\ntest\tlogging\tforever\ntest\tmetric\t1h\n',
  )
  assert.equal(
    (await ferry('retention', 'list', 'test')).stdout,
    'test\tlogging\tforever\ntest\tmetric\t1h\n',
  )
  const failures = await Promise.all([
    ferry('retention', 'set', 'test', 'metric'),
    ferry('retention', 'drop', 'test'),
    ferry('retention', 'set', 'nope', 'metric', '1d'),
    ferry('retention', 'set', 'test', 'metrics', '1d'),
    ferry('retention', 'set', 'test', 'metric', 'soon'),
    ferry('retention', 'clear', 'nope', 'metric'),
    ferry('retention', 'list', 'nope'),
  ])
  assert.deepEqual(
    failures.map((f) => [f.code, f.stdout, f.stderr]),
    [
      [2, '', 'ferry: missing arguments (see ferry workspace retention set --help)\n'],
      [
        2,
        '',
        'ferry: workspace retention: unknown subcommand "drop"; expected set, clear, list (see ferry workspace retention --help)\n',
      ],
      [1, '', 'ferry: no workspace named "nope"\n'],
      [1, '', `ferry: unknown category "metrics"; expected one of ${CATEGORY_NAMES.join(', ')}\n`],
      [1, '', 'ferry: "soon" is not a retention: a duration such as 14d or 12h, or forever\n'],
      [1, '', 'ferry: no workspace named "nope"\n'],
      [1, '', 'ferry: no workspace named "nope"\n'],
    ],
  )
})

test('the background job keeps each workspace per its own retention', async () => {
  for (const token of [data.token, other]) {
    await write(token, 'metric', `m v=1 ${now - 2n * HOUR_NS}\nm v=2 ${now}`)
    await write(token, 'logging', `l v=1 ${now - 48n * HOUR_NS}\nl v=2 ${now}`)
  }
  // test: metrics 1h (its own), logs forever (its own); other: 30d and 1d (the global keys).
  await poll(async () => ((await values(data.token, 'M::m')).length === 1 ? true : null))
  await poll(async () => ((await values(other, 'L::l')).length === 1 ? true : null))
  assert.deepEqual(await values(data.token, 'M::m'), [2])
  assert.deepEqual(await values(other, 'M::m'), [1, 2])
  assert.deepEqual(await values(data.token, 'L::l'), [1, 2])
  assert.deepEqual(await values(other, 'L::l'), [2])
})

test('cleared, the global retention applies again', async () => {
  assert.equal(
    (await ferry('retention', 'clear', 'test', 'logging')).stdout,
    'test keeps logging as the global retention says\n',
  )
  await poll(async () => ((await values(data.token, 'L::l')).length === 1 ? true : null))
  assert.deepEqual(await values(data.token, 'L::l'), [2])
  assert.equal(
    (await ferry('retention', 'clear', 'test', 'logging')).stdout,
    'test had no logging retention of its own\n',
  )
  assert.equal((await ferry('retention', 'list', 'test')).stdout, 'test\tmetric\t1h\n')
  await ferry('retention', 'clear', 'other', 'tracing')
  assert.equal(
    (await ferry('retention', 'list', 'other')).stdout,
    '(other has no retention of its own)\n',
  )
})
