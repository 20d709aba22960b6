/**
 * A tracer's side, run as a child process by ddtrace.test.ts: `send.ts <agent url>` sends the
 * fixture trace (three nested spans) as v0.4 msgpack, v0.5 msgpack with a string table and
 * v0.3 JSON, each under its own trace id, the way Datadog tracers do (PUT, the trace count
 * header), and prints one JSON line per request: the route, the answer and the trace id.
 */
import { readFileSync } from 'node:fs'
import { toJson, toV04, toV05, type FixtureTraces } from '../../helpers/ddtrace.js'

const [base] = process.argv.slice(2)
const fixture: FixtureTraces = JSON.parse(
  readFileSync(new URL('../../fixtures/ddtrace/trace.json', import.meta.url), 'utf8'),
).traces

const first = BigInt(fixture[0][0].start)
const now = BigInt(Date.now()) * 1_000_000n

/**
 * The fixture under another 64-bit trace id (no `_dd.p.tid`: the id stays decimal), moved to
 * now so that the workspace's default time range holds it.
 */
function traceWithId(id: string): FixtureTraces {
  return fixture.map((t) =>
    t.map((s) => {
      const { '_dd.p.tid': _high, ...meta } = s.meta
      return { ...s, trace_id: id, meta, start: String(now + BigInt(s.start) - first) }
    }),
  )
}

const ROUTES: [string, string, (t: FixtureTraces) => Uint8Array | string, string][] = [
  ['/v0.4/traces', 'application/msgpack', toV04, '4000000000000000004'],
  ['/v0.5/traces', 'application/msgpack', toV05, '5000000000000000005'],
  ['/v0.3/traces', 'application/json', toJson, '3000000000000000003'],
]

for (const [path, type, encode, id] of ROUTES) {
  const res = await fetch(`${base}${path}`, {
    method: 'PUT',
    body: encode(traceWithId(id)),
    headers: { 'content-type': type, 'x-datadog-trace-count': '1' },
  })
  console.log(JSON.stringify({ path, status: res.status, body: await res.text(), id }))
}
