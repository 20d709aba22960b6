/**
 * `ferry migrate` as a user runs it: the real CLI on the reference-shaped fixtures, its exit
 * statuses (0 all mapped, 3 some keys listed, 1 unreadable input or existing output), then the
 * written config loaded by Ferry's own loader with its input files, and the agent started on
 * it until it answers its ping.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../../src/config/load.js'
import { INPUT_KINDS } from '../../src/inputs/kinds.js'
import { planInputs } from '../../src/inputs/plan.js'
import { startAgent } from '../helpers/agent-process.js'

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url))
const CONF_D = fileURLToPath(new URL('../fixtures/migrate/conf.d/', import.meta.url))

function migrate(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'migrate', ...args], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const tmp = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `ferry-${name}-`))

test('migrate the fixtures, load the result, and boot the agent on it', async () => {
  const out = path.join(tmp('migrate'), 'conf')
  const env = {
    // Loopback only: the agent started below uploads nowhere else.
    DK_DATAWAY: 'http://127.0.0.1:9?token=tkn_0123456789abcdef0123456789abcdef',
    DK_HTTP_LISTEN: '127.0.0.1',
    DK_HTTP_PORT: '9629',
    CLUSTER_NAME: 'prod-a',
    DEPLOY_ENV: 'prod',
  }
  const r = migrate([path.join(CONF_D, 'datakit.conf'), '--out', out], env)
  assert.equal(r.status, 3, r.stderr)
  assert.equal(r.stdout.split('\n').filter(Boolean).length, 7)
  assert.match(r.stdout, /^db\/mysql\.conf:inputs\.mysql: Ferry has no mysql input$/m)
  assert.equal(
    r.stderr,
    `ferry migrate: wrote 6 files to ${out}; 7 keys not mapped (listed above); 61 left out as they ask for nothing Ferry lacks (reference defaults, empty or switched off)\n`,
  )

  const loaded = loadConfig(path.join(out, 'ferry.conf'), {})
  assert.equal(loaded.config.http_api.listen, '127.0.0.1:9629')
  assert.deepEqual(loaded.config.dataway.urls, [env.DK_DATAWAY])
  assert.deepEqual(loaded.config.global_host_tags, { region: 'cn-hangzhou', cluster: 'prod-a' })
  const inputs = planInputs(loaded, INPUT_KINDS).filter((c) => c.file)
  assert.deepEqual(
    inputs.map((c) => [path.relative(out, c.file), c.kind.name]),
    [
      ['host/cpu.conf', 'cpu'],
      ['host/disk.conf', 'disk'],
      ['host/mem.conf', 'mem'],
      ['log/logging.conf', 'logging'],
      ['prom/prom.conf', 'prom'],
    ],
  )

  // Writing again without --force keeps what is there.
  const again = migrate([path.join(CONF_D, 'datakit.conf'), '--out', out], env)
  assert.equal(again.status, 1)
  assert.equal(
    again.stderr,
    `ferry: ${path.join(out, 'ferry.conf')} exists (--force replaces it)\n`,
  )
  assert.equal(migrate([path.join(CONF_D, 'datakit.conf'), '--out', out, '--force'], env).status, 3)

  const agent = await startAgent({}, undefined, out)
  try {
    const ping = await fetch(`${agent.url}/v1/ping`)
    assert.equal(ping.status, 200)
  } finally {
    await agent.stop()
  }
})

test('exit 0 when every key maps; exit 1 for input that cannot be read', () => {
  const dir = tmp('migrate-small')
  const conf = path.join(dir, 'datakit.conf')
  fs.writeFileSync(
    conf,
    '[http_api]\n  listen = "localhost:9529"\n[dataway]\n  urls = ["$DK_DATAWAY"]\n' +
      '  gzip = true\n[logging]\n  level = "debug"\n',
  )
  const out = path.join(dir, 'out')
  const ok = migrate([conf, '--out', out], { DK_DATAWAY: 'http://127.0.0.1:9528?token=tkn_x' })
  assert.equal(ok.status, 0, ok.stderr)
  assert.equal(ok.stdout, '')
  assert.equal(ok.stderr, `ferry migrate: wrote 1 file to ${out}; every key mapped\n`)
  assert.deepEqual(loadConfig(path.join(out, 'ferry.conf'), {}).config.dataway.urls, [
    'http://127.0.0.1:9528?token=tkn_x',
  ])

  const missing = migrate([path.join(dir, 'nope.conf')])
  assert.equal(missing.status, 1)
  assert.equal(
    missing.stderr,
    `ferry: cannot read datakit.conf ${path.join(dir, 'nope.conf')}: no such file\n`,
  )
  const noInputs = migrate([
    conf,
    '--inputs-dir',
    path.join(dir, 'nope'),
    '--out',
    path.join(dir, 'o2'),
  ])
  assert.equal(noInputs.status, 1)
  assert.equal(
    noInputs.stderr,
    `ferry: cannot read inputs folder ${path.join(dir, 'nope')}: not a folder\n`,
  )
})
