/**
 * Fuzzing the real HTTP app (issue 14): mutated bodies, encodings, content types, query strings
 * and paths. Every answer is 2xx, 4xx or a documented 503, every refusal a JSON
 * `{error_code: "agent.<code>"}`, and a good write after each hostile request is accepted and
 * buffered. FUZZ_RUNS sets the number of hostile requests (default 10,000, each followed by a good write).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { ERRORS } from '../../../src/errors.js'
import { testApp } from '../../helpers/app.js'
import { fuzzRequest, requestUrl } from '../../helpers/fuzz-requests.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000)
/** 503 is documented for a busy or stopping agent and a dying worker; nothing else is 5xx. */
const DOCUMENTED_503 = [
  'agent.agentBusy',
  'agent.bufferFull',
  'agent.shuttingDown',
  'agent.decodeWorkerDied',
]

function checkRefusal(status: number, text: string, what: string): void {
  let body: { error_code?: unknown; message?: unknown }
  try {
    body = JSON.parse(text)
  } catch {
    return assert.fail(`${what}: ${status} with a body that is not JSON: ${text.slice(0, 200)}`)
  }
  const code = String(body.error_code)
  assert.match(code, /^agent\./, `${what}: ${text.slice(0, 200)}`)
  const entry = ERRORS[code.slice(6) as keyof typeof ERRORS]
  assert.ok(entry, `${what}: unknown code ${code}`)
  assert.equal(entry.status, status, `${what}: ${code} answered ${status}`)
  if (status >= 500) assert.ok(DOCUMENTED_503.includes(code), `${what}: ${status} ${text}`)
}

test(`fuzz: ${RUNS} hostile requests, each followed by a good write that is accepted`, async () => {
  const { app, buffer } = testApp()
  let good = 0
  let buffered = 0
  await fc.assert(
    fc.asyncProperty(fuzzRequest, async (r) => {
      const url = requestUrl(r)
      const res = await app.request(url, { method: 'POST', body: r.body, headers: r.headers })
      const text = await res.text()
      const what = `POST ${url} ${JSON.stringify(r.headers)} body ${Buffer.from(r.body).toString('base64')}`
      assert.ok(res.status < 500 || res.status === 503, `${what}: ${res.status} ${text}`)
      if (res.status >= 400) checkRefusal(res.status, text, what)
      const ok = await app.request('/v1/write/metric?input=good', {
        method: 'POST',
        body: `fuzz,n=${good} f=${good}i`,
      })
      assert.equal(ok.status, 200, `good write after ${what}: ${await ok.text()}`)
      good++
      buffered += buffer.take().filter((b) => b.input === 'good').length
    }),
    { numRuns: RUNS },
  )
  assert.equal(buffered, good)
  assert.equal(good, RUNS)
})
