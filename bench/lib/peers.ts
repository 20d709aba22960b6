/**
 * The targets of `bench:peers`, each a fresh process per cell: Ferry (compiled agent, `sync`
 * durability), vmagent (persistent queue, remote write), VictoriaMetrics single-node (parse and
 * store), and a bare node:http server. Ferry and vmagent upload to a sink in a process of its
 * own that decodes every body (`sink-server.ts`). Each target says where to write and how many
 * points it has delivered (null: not measurable).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { NODE_HEAP_FLAGS } from '../../src/shared/heap-flags.js'
import { MALLOC_TUNABLES } from '../../src/shared/malloc.js'
import { startChild } from './child.js'
import { mappedRssOf, startGoPeer } from './go-peer.js'
import { startVictoria } from './victoria.js'

export const VMAGENT_BINARY = '/usr/bin/vmagent'

export interface Target {
  /** Base URL; the write path is the case's. */
  url: string
  pid: number | undefined
  writePath(category: 'metric' | 'logging'): string
  peakRssMb(): number
  /** Points delivered (or stored) so far; null when the target does not forward. */
  delivered(): Promise<number | null>
  /** Extra figures for the note (heap of the main thread), or ''. */
  extra(): Promise<string>
  stop(): Promise<void>
}

const here = (p: string) => new URL(p, import.meta.url).pathname

interface Sink {
  url: string
  pid: number | undefined
  /** Points (Ferry's sink) or samples (remote write) decoded so far, and bodies refused. */
  totals(): Promise<{ items: number; errors: number }>
  stop(): Promise<void>
}

async function startSink(kind: 'ferry' | 'remote-write'): Promise<Sink> {
  const child = await startChild([here('./sink-server.js'), kind], {}, /listening (\S+)/)
  return {
    url: child.url,
    pid: child.proc.pid,
    totals: async () =>
      (await (await fetch(child.url)).json()) as { items: number; errors: number },
    stop: child.stop,
  }
}

async function sinkErrors(sink: Sink): Promise<string> {
  const { errors } = await sink.totals()
  return errors ? `${errors} bodies the sink could not decode` : ''
}

export async function startFerry(): Promise<Target> {
  const sink = await startSink('ferry')
  const upstream = `${sink.url}?token=tkn_00000000000000000000000000000000`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-peers-'))
  const agent = await startChild(
    [...NODE_HEAP_FLAGS, here('../../src/main.js'), 'run'],
    {
      // As the shipped service and `npm start` run it (src/shared/malloc.ts).
      GLIBC_TUNABLES: MALLOC_TUNABLES,
      ENV_HTTP_LISTEN: '127.0.0.1:0',
      ENV_DATA_DIR: dataDir,
      ENV_DATAWAY: upstream,
      ENV_DATAWAY_WAL_DURABILITY: 'sync',
      ENV_DATAWAY_RETRY_MAX: '1s',
      ENV_DECODE_MAX_QUEUE: '1024',
      ENV_PIPELINE_DIR: here('../../../conf.d/pipeline'),
      ENV_PIPELINE_TIMEZONE: 'UTC',
      ENV_DEFAULT_ENABLED_INPUTS: '',
    },
    /"event":"agent_started","listen":"([^"]+)"/,
  )
  return {
    url: agent.url,
    pid: agent.proc.pid,
    writePath: (c) => `/v1/write/${c}`,
    peakRssMb: agent.peakRssMb,
    delivered: async () => (await sink.totals()).items,
    async extra() {
      const text = await (await fetch(`${agent.url}/metrics`)).text()
      const heap = Number(/^ferry_nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? NaN)
      const errors = await sinkErrors(sink)
      const [lmdb, file] = mappedRssOf(agent.proc.pid, '/data.mdb')
      const buffer = Number(/^ferry_buffer_bytes\{category="metric"\} (\S+)/m.exec(text)?.[1] ?? 0)
      const recycled = Number(/^ferry_decode_worker_recycles_total (\S+)/m.exec(text)?.[1] ?? 0)
      return (
        `main-thread heap used ${(heap / 2 ** 20).toFixed(0)} MB; LMDB pages resident ` +
        `${lmdb.toFixed(0)} MB of a ${file.toFixed(0)} MB file, ${(buffer / 2 ** 20).toFixed(0)} MB buffered; ` +
        `decode workers recycled ${recycled}` +
        (errors ? `; ${errors}` : '')
      )
    },
    async stop() {
      await agent.stop()
      await sink.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Null when vmagent is not installed. */
export async function startVmagent(fieldsPerPoint: number): Promise<Target | null> {
  if (!fs.existsSync(VMAGENT_BINARY)) return null
  const sink = await startSink('remote-write')
  const upstream = `${sink.url}/api/v1/write`
  const peer = await startGoPeer(VMAGENT_BINARY, (dir, listen) => [
    `-httpListenAddr=${listen}`,
    `-remoteWrite.url=${upstream}`,
    `-remoteWrite.tmpDataPath=${dir}`,
    '-loggerLevel=ERROR',
  ])
  if (!peer) {
    await sink.stop()
    return null
  }
  return {
    url: peer.url,
    pid: peer.pid,
    writePath: () => '/write',
    peakRssMb: peer.peakRssMb,
    delivered: async () => (await sink.totals()).items / fieldsPerPoint,
    extra: async () => sinkErrors(sink),
    async stop() {
      await peer.stop()
      await sink.stop()
    },
  }
}

/** Null when VictoriaMetrics is not installed; delivered = stored. */
export async function startVm(fieldsPerPoint: number): Promise<Target | null> {
  const vm = await startVictoria()
  if (!vm) return null
  return {
    url: vm.url,
    pid: vm.pid,
    writePath: () => '/write',
    peakRssMb: vm.peakRssMb,
    delivered: async () => (await vm.rowsStored()) / fieldsPerPoint,
    extra: async () => '',
    stop: vm.stop,
  }
}

export async function startBaseline(): Promise<Target> {
  const child = await startChild([here('./baseline-server.js')], {}, /listening (\S+)/)
  return {
    url: child.url,
    pid: child.proc.pid,
    writePath: () => '/',
    peakRssMb: child.peakRssMb,
    delivered: async () => null,
    extra: async () => '',
    stop: child.stop,
  }
}
