/**
 * `npm run bench:otlp`: OTLP/HTTP protobuf exports of 100 spans each against the compiled
 * agent (upstream a local sink that counts points), beside the same spans as line protocol
 * through `/v1/write/tracing`, in the same run: spans/s accepted (durable: answered after the
 * buffer's commit) and delivered, the agent's CPU per span, peak RSS, and the OTLP/line
 * protocol cost ratio. BENCH_SECONDS (default 10) per run, BENCH_CONNECTIONS (default 8).
 *
 * Each run starts with BENCH_WARMUP seconds (default 2) of the same load, delivered before the
 * measured part starts: the decode workers load their modules after the agent says it started,
 * and the code is compiled under load, which would otherwise be charged to the first spans.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startChild } from './lib/child.js'
import { CountSink } from './lib/count-sink.js'
import { runLoad } from './lib/load.js'
import { otlpToProto } from './lib/otlp-proto.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const SPANS = 100
const main = new URL('../src/main.js', import.meta.url).pathname
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0')

function span(i: number, start: bigint) {
  return {
    traceId: hex(1 + Math.floor(i / 10), 32),
    spanId: hex(i + 1, 16),
    parentSpanId: i % 10 === 0 ? '' : hex(i - (i % 10) + 1, 16),
    name: `GET /api/item/${i % 7}`,
    kind: 2,
    startTimeUnixNano: String(start + BigInt(i) * 1000n),
    endTimeUnixNano: String(start + BigInt(i) * 1000n + 250_000n),
    attributes: [
      { key: 'http.request.method', value: { stringValue: 'GET' } },
      { key: 'http.response.status_code', value: { intValue: '200' } },
      { key: 'http.route', value: { stringValue: '/api/item/:id' } },
      { key: 'user.id', value: { stringValue: `u${i}` } },
    ],
    status: { code: 1 },
  }
}

function otlpBody(): Buffer {
  const start = BigInt(Date.now()) * 1_000_000n
  const spans = Array.from({ length: SPANS }, (_, i) => span(i, start))
  const resource = { attributes: [{ key: 'service.name', value: { stringValue: 'bench' } }] }
  const req = { resourceSpans: [{ resource, scopeSpans: [{ scope: { name: 'b' }, spans }] }] }
  return Buffer.from(otlpToProto('TracesRequest', req))
}

/** The same spans as the mapping makes them, as line protocol. */
function lpBody(): Buffer {
  const now = BigInt(Date.now()) * 1_000_000n
  const lines = Array.from({ length: SPANS }, (_, i) => {
    const s = span(i, now)
    const tags = `source=opentelemetry,service=bench,status=ok,span_type=entry,span_kind=server,operation=GET\\ /api/item/${i % 7},http_status_code=200,source_type=web`
    const fields = `trace_id="${s.traceId}",span_id="${s.spanId}",parent_id="${s.parentSpanId || '0'}",resource="${s.name}",start=${BigInt(s.startTimeUnixNano) / 1000n}i,duration=250i,http_method="GET",http_route="/api/item/:id",message="{\\"attributes\\":[{\\"key\\":\\"user.id\\",\\"value\\":{\\"stringValue\\":\\"u${i}\\"}}]}"`
    return `opentelemetry,${tags} ${fields} ${s.startTimeUnixNano}`
  })
  return Buffer.from(lines.join('\n'))
}

function cpuSeconds(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(f[11]) + Number(f[12])) / 100 // utime + stime, in clock ticks of 1/100 s
}

/** Waits (at most a minute) until the sink has counted `points`; the seconds it took. */
async function delivered(sink: CountSink, points: number): Promise<number> {
  const t0 = performance.now()
  while (sink.points < points && performance.now() - t0 < 60_000)
    await new Promise((res) => setTimeout(res, 50))
  return (performance.now() - t0) / 1000
}

/** Which path mapped the spans (the trace transcoder or the general mapping), from /metrics. */
async function tracePaths(url: string): Promise<string> {
  const text = await (await fetch(`${url}/metrics`)).text()
  const count = (path: string) =>
    Number(
      new RegExp(`ferry_otlp_trace_spans_total\\{path="${path}"\\} (\\d+)`).exec(text)?.[1] ?? 0,
    )
  const fast = count('transcoder')
  const general = count('general')
  if (fast + general === 0) return ''
  const share = ((100 * general) / (fast + general)).toFixed(1)
  return `spans by the trace transcoder ${fmt(fast)}, by the general mapping ${fmt(general)} (${share}% general)`
}

async function run(name: string, route: string, body: Buffer, headers: Record<string, string>) {
  const sink = new CountSink()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-'))
  const env = {
    ENV_HTTP_LISTEN: '127.0.0.1:0',
    ENV_DATA_DIR: dataDir,
    ENV_DATAWAY: await sink.start(),
    ENV_DECODE_MAX_QUEUE: '1024',
  }
  const agent = await startChild([main, 'run'], env, /"event":"agent_started","listen":"([^"]+)"/)
  try {
    const warm = await runLoad(`${agent.url}${route}`, body, WARMUP, CONNECTIONS, headers)
    await delivered(sink, warm.ok * SPANS)
    const sink0 = sink.points
    const cpu0 = cpuSeconds(agent.proc.pid!)
    const r = await runLoad(`${agent.url}${route}`, body, SECONDS, CONNECTIONS, headers)
    const cpu = cpuSeconds(agent.proc.pid!) - cpu0
    const accepted = r.ok * SPANS
    const drained = await delivered(sink, sink0 + accepted)
    const paths = await tracePaths(agent.url)
    const x = {
      accepted: accepted / r.seconds,
      delivered: (sink.points - sink0) / (r.seconds + drained),
      cpuUsPerSpan: (cpu * 1e6) / Math.max(accepted, 1),
      rss: agent.peakRssMb(),
      failed: r.failed + warm.failed,
    }
    console.log(
      `${name}: accepted ${fmt(x.accepted)} spans/s, delivered ${fmt(x.delivered)} spans/s, CPU ${x.cpuUsPerSpan.toFixed(2)} µs/span, peak RSS ${x.rss.toFixed(0)} MB, non-2xx ${x.failed}`,
    )
    if (paths) console.log(`  ${paths}`)
    return x
  } finally {
    await agent.stop()
    await sink.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

async function mainBench() {
  const otlp = otlpBody()
  const lp = lpBody()
  console.log(
    `${SPANS} spans a request: OTLP protobuf ${otlp.length} bytes, line protocol ${lp.length} bytes; ${CONNECTIONS} connections, ${SECONDS}s per run`,
  )
  const a = await run('OTLP/HTTP protobuf', '/v1/traces', otlp, {
    'Content-Type': 'application/x-protobuf',
  })
  const b = await run('line protocol /v1/write/tracing', '/v1/write/tracing', lp, {})
  console.log(
    `OTLP / line protocol: CPU per span ${(a.cpuUsPerSpan / b.cpuUsPerSpan).toFixed(2)}x, accepted spans/s ${(a.accepted / b.accepted).toFixed(2)}x`,
  )
}

mainBench().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
