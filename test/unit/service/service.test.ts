/** `ferry service`: the files it installs (under --root), and the unit passing systemd's check. */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { parse } from 'smol-toml'
import { loadConfig } from '../../../src/config/load.js'
import { install, uninstall } from '../../../src/service/service.js'
import { unitFile } from '../../../src/service/unit.js'
import { hasCommand } from '../../helpers/commands.js'
import { addedLines } from '../../helpers/lines.js'

const PKG = new URL('../../../', import.meta.url).pathname

function fakePackage(): string {
  // The real conf.d, and a dist/src/main.js so install finds something to run.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-pkg-'))
  fs.cpSync(path.join(PKG, 'conf.d'), path.join(dir, 'conf.d'), { recursive: true })
  fs.mkdirSync(path.join(dir, 'dist', 'src'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'dist', 'src', 'main.js'), '')
  return dir
}

test('install --root writes the unit, the config with data_dir set, and the scripts', () => {
  const packageRoot = fakePackage()
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-root-'))
  const log: string[] = []
  const o = { packageRoot, root, log: (l: string) => log.push(l) }
  install(o)
  const unit = fs.readFileSync(path.join(root, 'etc/systemd/system/ferry.service'), 'utf8')
  assert.equal(
    unit,
    unitFile({
      node: process.execPath,
      main: path.join(packageRoot, 'dist/src/main.js'),
      user: 'ferry',
      configDir: '/etc/ferry',
      dataDir: '/var/lib/ferry',
    }),
  )
  const conf = path.join(root, 'etc/ferry/ferry.conf')
  const shipped = fs.readFileSync(path.join(PKG, 'conf.d/ferry.conf'), 'utf8')
  const text = fs.readFileSync(conf, 'utf8')
  assert.deepEqual(addedLines(shipped, text), ['data_dir = "/var/lib/ferry"'])
  assert.equal(loadConfig(conf, {}).config.agent.data_dir, '/var/lib/ferry')
  assert.ok(fs.existsSync(path.join(root, 'etc/ferry/pipeline/logging/nginx.js')))
  assert.ok(fs.statSync(path.join(root, 'var/lib/ferry')).isDirectory())
  // A second install keeps a config the operator edited.
  fs.writeFileSync(conf, '[agent]\ndata_dir = "/srv/ferry"\n')
  install(o)
  assert.equal(
    (parse(fs.readFileSync(conf, 'utf8')) as { agent: { data_dir: string } }).agent.data_dir,
    '/srv/ferry',
  )
  assert.ok(log.includes(`kept ${conf}`))
  uninstall(o)
  assert.equal(fs.existsSync(path.join(root, 'etc/systemd/system/ferry.service')), false)
  assert.ok(fs.existsSync(conf))
})

test('install refuses without a build', () => {
  const packageRoot = fakePackage()
  fs.rmSync(path.join(packageRoot, 'dist'), { recursive: true })
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-root-'))
  assert.throws(() => install({ packageRoot, root, log: () => undefined }), /npm run build/)
})

test('the unit passes systemd-analyze verify', (t) => {
  if (!hasCommand('systemd-analyze')) return t.skip('systemd-analyze not installed')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-unit-'))
  const file = path.join(dir, 'ferry.service')
  fs.writeFileSync(
    file,
    unitFile({
      node: process.execPath,
      main: path.join(PKG, 'dist/src/main.js'),
      user: 'ferry',
      configDir: '/etc/ferry',
      dataDir: '/var/lib/ferry',
    }),
  )
  const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(`${r.stdout}${r.stderr}`.trim(), '')
})
