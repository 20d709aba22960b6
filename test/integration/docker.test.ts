/**
 * The images themselves, where a Docker engine runs (`docker info` succeeds): the agent image
 * turns healthy on a moved ENV_HTTP_LISTEN as uid 10001 without DuckDB, stops with one clear
 * line when it has no upstream, and the workspace image runs the whole system. Elsewhere every
 * test here is skipped, with the reason.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { test, type TestContext } from 'node:test'

const ROOT = new URL('../..', import.meta.url).pathname
const AGENT = 'ferry-test:agent'
const WORKSPACE = 'ferry-test:workspace'
const UPSTREAM = 'ENV_DATAWAY=http://127.0.0.1:9?token=tkn_test'

function docker(...args: string[]) {
  const r = spawnSync('docker', args, { cwd: ROOT, encoding: 'utf8', timeout: 15 * 60_000 })
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim(), error: r.error }
}

function noDocker(): string | false {
  const r = docker('info', '--format', '{{.ServerVersion}}')
  if (r.error) return `docker is not installed (${r.error.message})`
  if (r.status !== 0) return `no Docker engine answers: ${r.out.split('\n').at(-1)}`
  return false
}

const skip = noDocker()
const options = { skip: skip ? `skipped: ${skip}` : false, timeout: 20 * 60_000 }

function build(tag: string, ...extra: string[]): void {
  const r = docker('build', ...extra, '-t', tag, '.')
  assert.equal(r.status, 0, r.out)
}

async function healthy(container: string): Promise<string> {
  let status = ''
  for (let i = 0; i < 120 && status !== 'healthy'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    status = docker('inspect', '--format', '{{.State.Health.Status}}', container).out
  }
  return status
}

async function runHealthy(
  t: TestContext,
  image: string,
  env: string[],
): Promise<(cmd: string[]) => string> {
  const flags = env.flatMap((e) => ['-e', e])
  const run = docker('run', '-d', '--health-interval', '1s', ...flags, image)
  assert.equal(run.status, 0, run.out)
  const id = run.out.split('\n').at(-1)!
  t.after(() => void docker('rm', '-f', id))
  assert.equal(await healthy(id), 'healthy', docker('logs', id).out)
  return (cmd) => docker('exec', id, ...cmd).out
}

test(
  'agent image: healthy on a moved listen address, as uid 10001, without DuckDB',
  options,
  async (t) => {
    build(AGENT)
    const exec = await runHealthy(t, AGENT, [UPSTREAM, 'ENV_HTTP_LISTEN=0.0.0.0:9600'])
    assert.equal(exec(['id', '-u']), '10001')
    const probe =
      "import('@duckdb/node-api').then(() => console.log('present'), () => console.log('absent'))"
    assert.equal(exec(['node', '-e', probe]), 'absent')
  },
)

test('agent image with no upstream: exits with "no upstream"', options, () => {
  build(AGENT)
  const r = docker('run', '--rm', AGENT)
  assert.equal(r.status, 2)
  assert.match(r.out, /no upstream: set ENV_DATAWAY/)
})

test('workspace image: the agent with its embedded workspace turns healthy', options, async (t) => {
  build(WORKSPACE, '--target', 'workspace')
  const exec = await runHealthy(t, WORKSPACE, [])
  assert.match(exec(['node', 'dist/src/main.js', 'health']), /^healthy: /)
})
