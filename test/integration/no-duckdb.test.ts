/**
 * The agent as the agent image runs it: container mode with no DuckDB installed (hidden by a
 * resolve hook). With an upstream it starts and `ferry health` follows ENV_HTTP_LISTEN; with
 * none it stops at once with one clear line instead of a stack trace.
 */
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { freePort } from '../helpers/ports.js'

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname
// A resolve hook that finds no `@duckdb/*` package, as in the agent image. Inline rather than
// a file: worker threads get the same --import before tsx can load TypeScript in them.
const HOOKS = `export async function resolve(specifier, context, next) {
  if (!specifier.startsWith('@duckdb/')) return next(specifier, context)
  throw Object.assign(new Error('Cannot find package ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' })
}`
const dataUrl = (code: string) => `data:text/javascript,${encodeURIComponent(code)}`
const HIDE = dataUrl(
  `import { register } from 'node:module'; register(${JSON.stringify(dataUrl(HOOKS))})`,
)
const NODE_ARGS = ['--import', 'tsx', '--import', HIDE, MAIN]

function containerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    FERRY_CONTAINER: '1',
    ENV_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-noduck-')),
    ENV_LOG_LEVEL: 'warn',
    ...extra,
  }
}

function health(env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, [...NODE_ARGS, 'health'], { env, encoding: 'utf8' })
}

test('without DuckDB, an agent with an upstream starts and answers ferry health', async () => {
  const env = containerEnv({
    ENV_HTTP_LISTEN: `127.0.0.1:${await freePort()}`,
    ENV_DATAWAY: 'http://127.0.0.1:9?token=tkn_test',
  })
  const child = spawn(process.execPath, [...NODE_ARGS, 'run'], { env, stdio: 'ignore' })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    let r = health(env)
    for (let i = 0; i < 30 && r.status !== 0 && child.exitCode === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      r = health(env)
    }
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /^ok http:\/\/127\.0\.0\.1:\d+\/v1\/ping\n$/)
  } finally {
    child.kill('SIGTERM')
    await exited
  }
  const down = health(env)
  assert.equal(down.status, 1)
  assert.match(down.stderr, /^ferry: unhealthy: http:\/\/127\.0\.0\.1:\d+\/v1\/ping: .+\n$/)
})

test('without DuckDB and with no upstream, the agent stops with one clear line', () => {
  const env = containerEnv({ ENV_HTTP_LISTEN: '127.0.0.1:0' })
  const r = spawnSync(process.execPath, [...NODE_ARGS, 'run'], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  })
  assert.equal(r.status, 1, 'a config problem, not a usage error')
  assert.match(r.stderr, /^ferry: no upstream: set ENV_DATAWAY/m)
  assert.doesNotMatch(r.stderr, /^\s+at /m)
})
