/**
 * `ferry service install|uninstall|start|stop|status`: installs Ferry as a systemd service.
 *
 * install: creates the `ferry` system user, /etc/ferry (the shipped config with data_dir set to
 * /var/lib/ferry, and the pipeline scripts; existing files are kept), /var/lib/ferry, writes
 * the unit, and enables and starts it. uninstall: stops and disables it and removes the unit,
 * keeping config and data. `--root DIR` writes everything under DIR and runs no system command
 * (for packaging and tests).
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { patchToml } from '../config/edit.js'
import { FerryError } from '../errors.js'
import { SERVICE_NAME, unitFile } from './unit.js'

export const SERVICE_USAGE = `  service install|uninstall|start|stop|status [--root DIR]
                           run as a systemd service (user ferry, /etc/ferry, /var/lib/ferry)`

export interface ServiceOptions {
  /** The package root (holds dist/ and conf.d/). */
  packageRoot: string
  /** Prefix for every path written; '/' for the real system. */
  root: string
  log: (line: string) => void
}

const USER = 'ferry'

function run(cmd: string, args: string[], log: ServiceOptions['log'], check = true): number {
  log(`$ ${cmd} ${args.join(' ')}`)
  const r = spawnSync(cmd, args, { stdio: 'inherit' })
  if (r.error) throw new FerryError('internalError', `${cmd}: ${r.error.message}`)
  if (check && r.status !== 0)
    throw new FerryError('internalError', `${cmd} ${args.join(' ')} exited with ${r.status}`)
  return r.status ?? 1
}

function paths(o: ServiceOptions) {
  const at = (p: string) => path.join(o.root, p)
  return {
    unit: at(`/etc/systemd/system/${SERVICE_NAME}.service`),
    configDir: at('/etc/ferry'),
    dataDir: at('/var/lib/ferry'),
    main: path.join(o.packageRoot, 'dist', 'src', 'main.js'),
  }
}

function ensureUser(o: ServiceOptions): void {
  if (spawnSync('id', ['-u', USER]).status === 0) return
  run(
    'useradd',
    ['--system', '--home-dir', '/var/lib/ferry', '--shell', '/usr/sbin/nologin', USER],
    o.log,
  )
}

/** The shipped config with data_dir pointing at the service's data directory. */
function serviceConfig(o: ServiceOptions): string {
  const sample = path.join(o.packageRoot, 'conf.d', 'ferry.conf')
  const text = fs.readFileSync(sample, 'utf8')
  const out = patchToml(text, sample, (doc) => {
    doc.agent = { ...(doc.agent as object), data_dir: '/var/lib/ferry' }
  })
  return out ?? text
}

function writeConfig(o: ServiceOptions, configDir: string): void {
  fs.mkdirSync(configDir, { recursive: true, mode: 0o750 })
  const file = path.join(configDir, 'ferry.conf')
  if (fs.existsSync(file)) o.log(`kept ${file}`)
  else {
    fs.writeFileSync(file, serviceConfig(o), { mode: 0o640 })
    o.log(`wrote ${file}`)
  }
  const scripts = path.join(configDir, 'pipeline')
  if (!fs.existsSync(scripts))
    fs.cpSync(path.join(o.packageRoot, 'conf.d', 'pipeline'), scripts, { recursive: true })
}

export function install(o: ServiceOptions): void {
  const real = o.root === '/'
  if (real && process.getuid?.() !== 0)
    throw new FerryError('badRequest', 'service install needs root (try sudo)')
  const p = paths(o)
  if (!fs.existsSync(p.main))
    throw new FerryError('badRequest', `${p.main} is missing: run \`npm run build\` first`)
  if (real) ensureUser(o)
  writeConfig(o, p.configDir)
  fs.mkdirSync(p.dataDir, { recursive: true, mode: 0o750 })
  if (real) run('chown', ['-R', `${USER}:${USER}`, p.configDir, p.dataDir], o.log)
  fs.mkdirSync(path.dirname(p.unit), { recursive: true })
  const unit = unitFile({
    node: process.execPath,
    main: p.main,
    user: USER,
    configDir: '/etc/ferry',
    dataDir: '/var/lib/ferry',
  })
  fs.writeFileSync(p.unit, unit)
  o.log(`wrote ${p.unit}`)
  if (!real) return
  run('systemctl', ['daemon-reload'], o.log)
  run('systemctl', ['enable', '--now', SERVICE_NAME], o.log)
}

export function uninstall(o: ServiceOptions): void {
  const p = paths(o)
  if (o.root === '/') run('systemctl', ['disable', '--now', SERVICE_NAME], o.log, false)
  fs.rmSync(p.unit, { force: true })
  o.log(`removed ${p.unit}; kept ${p.configDir} and ${p.dataDir}`)
  if (o.root === '/') run('systemctl', ['daemon-reload'], o.log)
}

/** start, stop, status: systemctl's own answer and exit code. */
export function control(verb: 'start' | 'stop' | 'status', o: ServiceOptions): number {
  return run('systemctl', [verb, SERVICE_NAME], o.log, verb !== 'status')
}
