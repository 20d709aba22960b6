/**
 * An application traced by the real Datadog tracer (dd-trace from the npm registry), run as a
 * child process by ddtrace-tracer.test.ts: `dd-app.ts <agent url> <service> <0.4|0.5>`. It makes
 * one nested trace (checkout → db, the db span failing), lets the tracer send it to the agent
 * URL with the chosen protocol version, and prints the root span's 64-bit trace id once the
 * tracer's flush interval has passed.
 */
import tracer from 'dd-trace'

const [url, service, protocol] = process.argv.slice(2)
process.env.DD_TRACE_AGENT_PROTOCOL_VERSION = protocol
tracer.init({ url, service, flushInterval: 100, startupLogs: false, plugins: false })

const root = tracer.startSpan('checkout', {
  tags: { 'span.type': 'web', 'resource.name': 'POST /checkout', 'http.method': 'POST' },
})
const db = tracer.startSpan('db.query', {
  childOf: root,
  tags: { 'span.type': 'sql', 'db.type': 'postgres', 'resource.name': 'UPDATE stock' },
})
db.setTag('error', new Error('deadlock'))
db.finish()
root.finish()
await new Promise((r) => setTimeout(r, 1500))
console.log(root.context().toTraceId())
