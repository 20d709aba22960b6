/**
 * A real ClickHouse server on loopback (Debian's `clickhouse-server`) as a child process with
 * its own config, data directory and free ports (never the packaged service or 8123/9000), for
 * the tests that run the workspace's contract suites on ClickHouse. Optional on a developer
 * machine (those tests skip, saying why); CI installs the package.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before } from 'node:test'
import { ClickHouseClient } from '../../src/workspace/store/clickhouse/client.js'
import { freePorts } from './ports.js'
import { until } from './until.js'

const SERVER = 'clickhouse-server'

/** Why ClickHouse tests cannot run here, or null when they can. */
export function clickhouseMissing(): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${SERVER}`])
  return r.status === 0 ? null : `${SERVER} is not installed (apt-get install clickhouse-server)`
}

export interface ClickHouseServer {
  url: string
  proc: ChildProcess
  stop(): Promise<void>
}

/** A node's config; `extra` is more of it (a cluster's sections), before the end. */
export function nodeConfig(
  dir: string,
  http: number,
  tcp: number,
  inter: number,
  extra = '',
): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${http}</http_port>
  <tcp_port>${tcp}</tcp_port>
  <interserver_http_port>${inter}</interserver_http_port>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
${extra}</yandex>
`
}

export const USERS = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>1000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`

/** Another config and users file (the shipped ones, say), given the directory and ports. */
export interface ClickHouseFiles {
  config(dir: string, http: number, tcp: number, inter: number): string
  users: string
}

/** Launches tried on fresh ports when one was taken between its choice and the server's bind. */
const LAUNCHES = 3

export async function startClickHouse(
  files: ClickHouseFiles = { config: nodeConfig, users: USERS },
): Promise<ClickHouseServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(files, await freePorts(3))
    } catch (e) {
      if (attempt >= LAUNCHES || !/Address already in use/.test((e as Error).message)) throw e
    }
  }
}

async function startOn(
  files: ClickHouseFiles,
  [http, tcp, inter]: number[],
): Promise<ClickHouseServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-ch-'))
  fs.writeFileSync(path.join(dir, 'config.xml'), files.config(dir, http, tcp, inter))
  fs.writeFileSync(path.join(dir, 'users.xml'), files.users)
  const url = `http://127.0.0.1:${http}`
  const stop = async (proc: ChildProcess | null) => {
    if (proc) await killed(proc)
    fs.rmSync(dir, { recursive: true, force: true })
  }
  let proc: ChildProcess | null = null
  try {
    proc = await launchClickHouse(dir, url)
  } catch (e) {
    await stop(proc)
    throw e
  }
  return { url, proc, stop: () => stop(proc) }
}

/** SIGKILLs `proc` and waits for its exit. */
export function killed(proc: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode) return resolve()
    proc.once('exit', () => resolve())
    proc.kill('SIGKILL')
  })
}

/**
 * Runs clickhouse-server on `dir/config.xml` (its data stay in `dir`, so a killed server can
 * be launched again on them) and waits until `url` answers /ping.
 */
export async function launchClickHouse(dir: string, url: string): Promise<ChildProcess> {
  const proc = spawn(SERVER, [`--config-file=${path.join(dir, 'config.xml')}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  proc.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)))
  // Kept beside the data, for a server that dies later in a test.
  proc.stderr!.pipe(fs.createWriteStream(path.join(dir, 'stderr.log'), { flags: 'a' }))
  try {
    await until(async () => {
      if (proc.exitCode !== null) throw new Error(`clickhouse-server exited: ${stderr}`)
      const res = await fetch(`${url}/ping`).catch(() => null)
      return res?.ok ? true : null
    }, 30_000)
  } catch (e) {
    await killed(proc)
    throw e
  }
  return proc
}

/**
 * One server for a test file: started before its tests, stopped after them; `client()` opens a
 * client of it (the caller closes it). `missing` says why the file's tests skip, or is null.
 */
export function useClickHouse(): { missing: string | null; client(): ClickHouseClient } {
  const missing = clickhouseMissing()
  let server: ClickHouseServer | null = null
  before(async () => {
    if (!missing) server = await startClickHouse()
  })
  after(() => server?.stop())
  const client = () => testClient([server!.url])
  return { missing, client }
}

/** A client of the test servers at `urls` as user `default` (sticky: as in cluster mode). */
export function testClient(urls: string[], sticky = false): ClickHouseClient {
  return new ClickHouseClient({
    urls,
    user: 'default',
    password: '',
    tls: { ca: '', cert: '', key: '', insecureSkipVerify: false },
    connectTimeoutMs: 2000,
    maxConnections: 4,
    sticky,
  })
}
