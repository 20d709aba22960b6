/**
 * A real ZooKeeper (Debian's `zookeeper` package) as a child process with its own config and
 * data directory on a free loopback port (never the packaged service or 2181), for the tests of
 * a ClickHouse cluster. Optional on a developer machine (those tests skip, saying why).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { killed } from './clickhouse.js'
import { freePort } from './ports.js'
import { until } from './until.js'

const JAR = '/usr/share/java/zookeeper.jar'

/** Why ZooKeeper cannot run here, or null when it can. */
export function zookeeperMissing(): string | null {
  if (!fs.existsSync(JAR)) return `${JAR} is missing (apt-get install zookeeper)`
  const java = spawnSync('sh', ['-c', 'command -v java'])
  return java.status === 0 ? null : 'java is not installed (apt-get install zookeeper)'
}

export interface ZooKeeper {
  port: number
  stop(): Promise<void>
}

/**
 * Whether the server serves sessions: `stat` names its mode only then (`ruok` says imok
 * earlier, and a ClickHouse 18.16 whose first session fails at start can crash).
 */
function serving(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => s.end('stat'))
    let text = ''
    s.on('data', (d) => (text += String(d)))
    s.on('close', () => resolve(/^Mode: standalone$/m.test(text)))
    s.on('error', () => resolve(false))
    s.setTimeout(2000, () => s.destroy())
  })
}

export async function startZooKeeper(): Promise<ZooKeeper> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-zk-'))
  const port = await freePort()
  const cfg = path.join(dir, 'zoo.cfg')
  fs.writeFileSync(
    cfg,
    [
      'tickTime=500',
      'initLimit=10',
      'syncLimit=5',
      `dataDir=${dir}/data`,
      `clientPort=${port}`,
      'clientPortAddress=127.0.0.1',
      'admin.enableServer=false',
      'maxClientCnxns=0',
      '4lw.commands.whitelist=stat',
      '',
    ].join('\n'),
  )
  const proc: ChildProcess = spawn(
    'java',
    ['-Xmx256m', '-cp', JAR, 'org.apache.zookeeper.server.quorum.QuorumPeerMain', cfg],
    { cwd: dir, stdio: 'ignore' },
  )
  const stop = async () => {
    await killed(proc)
    fs.rmSync(dir, { recursive: true, force: true })
  }
  try {
    await until(async () => {
      if (proc.exitCode !== null) throw new Error(`zookeeper exited with ${proc.exitCode}`)
      return (await serving(port)) ? true : null
    }, 60_000)
  } catch (e) {
    await stop()
    throw e
  }
  return { port, stop }
}
