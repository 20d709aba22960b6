/**
 * A property shared by the receivers' fuzz tests: random bytes sent to any of the given routes
 * with any of the given types are either accepted (200) or refused with the agent's JSON error
 * body, whose code has the answer's status in the error table and is below 500.
 */
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { ERRORS } from '../../src/errors.js'

export async function assertHostileBodiesRefused(
  app: { request(path: string, init: RequestInit): Response | Promise<Response> },
  o: { paths: string[]; types: string[]; method: string; runs: number },
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...o.paths),
      fc.constantFrom(...o.types),
      fc.uint8Array({ maxLength: 256 }),
      async (path, ct, body) => {
        const headers = { 'content-type': ct }
        const res = await app.request(path, { method: o.method, body, headers })
        const text = await res.text()
        if (res.status === 200) return
        const code = String(JSON.parse(text).error_code).slice('agent.'.length)
        assert.equal(ERRORS[code as keyof typeof ERRORS]?.status, res.status, text)
        assert.ok(res.status < 500, text)
      },
    ),
    { numRuns: o.runs },
  )
}
