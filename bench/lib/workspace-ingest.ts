/**
 * The ingest part of `bench:workspace`: one body of 3,000 corpus points as the agent uploads it
 * (protobuf, gzip level 1), its single-thread decode rate, then 4 connections for `seconds`
 * against `ferry workspace` with 1 and 2 decode workers; the same points as line protocol into
 * VictoriaMetrics (skipped when not installed), and the same bodies into a bare node:http server.
 * Ratios are against the default run (1 decode worker).
 */
import fs from 'node:fs'
import zlib from 'node:zlib'
import { encodePoint } from '../../src/decode/codec/protobuf.js'
import { PbWriter } from '../../src/decode/codec/pb-writer.js'
import { parseLines } from '../../src/decode/lp/parse.js'
import { makeBody } from '../corpus.js'
import { startChild, type Child } from './child.js'
import { decodeRate } from './decode-rate.js'
import { percentile, runLoad } from './load.js'
import { victoriaRow } from './throughput.js'

export const POINTS = 3000
export const FIELDS = 10
const CONNECTIONS = 4
const here = (p: string) => new URL(p, import.meta.url).pathname
const fmt = (n: number) => Math.round(n).toLocaleString('en')
export const PB_HEADERS = {
  'Content-Type': 'application/protobuf; proto=com.guance.Point',
  'Content-Encoding': 'gzip',
}

export function bodies(): { pb: Buffer; lp: Buffer } {
  const text = makeBody(POINTS)
  const { points } = parseLines(text, Buffer.from(text))
  const w = new PbWriter()
  for (const p of points) encodePoint(w, p)
  return { pb: zlib.gzipSync(w.finish(), { level: 1 }), lp: Buffer.from(text) }
}

/** CPU time (user + system, all threads) a process has used so far, from /proc. */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

type Start = (dir: string, env?: Record<string, string>) => Promise<Child>

async function workspaceRun(
  start: Start,
  dir: string,
  token: string,
  body: Buffer,
  seconds: number,
  workers: number,
): Promise<number> {
  const ws = await start(dir, { ENV_WORKSPACE_DECODE_WORKERS: String(workers) })
  try {
    const url = `${ws.url}/v1/write/metric?token=${token}`
    const r = await runLoad(url, body, seconds, CONNECTIONS, PB_HEADERS)
    const rate = (r.ok * POINTS) / r.seconds
    const cpu = cpuMs(ws.proc.pid!) / ((r.ok * POINTS) / 1000)
    console.log(
      `workspace ingest, ${workers} decode worker${workers > 1 ? 's' : ''}: ${fmt(rate)} points/s committed (${r.ok} bodies of ${POINTS}, ${(body.length / 1024).toFixed(0)} KiB gzip), CPU ${cpu.toFixed(1)} ms per 1,000 points (every thread, start-up included), p50 ${percentile(r.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(r.latenciesMs, 99).toFixed(1)} ms, failed ${r.failed}, peak RSS ${ws.peakRssMb().toFixed(0)} MB`,
    )
    return rate
  } finally {
    await ws.stop()
  }
}

async function bareRate(body: Buffer, seconds: number): Promise<number> {
  const base = await startChild([here('./baseline-server.js')], {}, /listening (\S+)/)
  try {
    const r = await runLoad(`${base.url}/`, body, seconds, CONNECTIONS, PB_HEADERS)
    return (r.ok * POINTS) / r.seconds
  } finally {
    await base.stop()
  }
}

export async function ingestRuns(
  dir: string,
  token: string,
  seconds: number,
  start: Start,
): Promise<void> {
  const { pb, lp } = bodies()
  const d = await decodeRate(pb, Math.min(seconds, 5))
  console.log(
    `decodeUpload, one thread (gunzip + protobuf to column batches): ${fmt(d.pointsPerS)} points/s, ${d.usPerPoint.toFixed(2)} µs per point (best of 5 rounds), ${d.cpuUsPerPoint.toFixed(2)} µs of CPU per point`,
  )
  const one = await workspaceRun(start, dir, token, pb, seconds, 1)
  const two = await workspaceRun(start, dir, token, pb, seconds, 2)
  const vm = await victoriaRow(lp, POINTS, FIELDS, seconds, CONNECTIONS)
  if (!vm) console.log('victoria-metrics: not installed, row skipped')
  else
    console.log(
      `victoria-metrics /write, the same points as line protocol (uncompressed: no gunzip on its side): ${fmt(vm.storedPerS)} points/s stored, peak RSS ${vm.rssMb.toFixed(0)} MB; ratio ferry/victoria-metrics ${(one / vm.storedPerS).toFixed(2)} (2 decode workers ${(two / vm.storedPerS).toFixed(2)})`,
    )
  const bare = await bareRate(pb, seconds)
  console.log(
    `bare node:http reading the same bodies: ${fmt(bare)} points/s; ratio ${(one / bare).toFixed(3)}`,
  )
}
