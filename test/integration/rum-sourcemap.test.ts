/**
 * Source maps end to end, as a browser app's team uses them: upload the zip to the agent, write
 * a RUM error with a minified stack, and find the mapped stack in the workspace through DQL.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { zipSync } from 'fflate'
import { startAgent } from '../helpers/agent-process.js'
import { poll } from '../helpers/workspace.js'
import { createWorkspaceData } from '../helpers/workspace-process.js'

const FIX = new URL('../fixtures/sourcemap/', import.meta.url)
const cases = JSON.parse(fs.readFileSync(new URL('cases.json', FIX), 'utf8')) as {
  cases: { error_stack_in?: string; error_stack_source_out?: string }[]
}
const APP = 'appid_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'

test('a map uploaded to the agent turns a minified RUM stack readable in the workspace', async () => {
  const ws = createWorkspaceData()
  const service = await ws.start()
  // The upload's token is the upstream's data token, as the reference checks it.
  const agent = await startAgent({ ENV_DATAWAY: `${service.url}?token=${ws.token}` })
  try {
    const zip = zipSync({
      'dist/bundle.js.map': new Uint8Array(
        fs.readFileSync(new URL('datakit-testdata-bundle.js.map', FIX)),
      ),
    })
    const form = new FormData()
    form.set('file', new Blob([zip]), 'maps.zip')
    const q = new URLSearchParams({
      token: ws.token,
      app_id: APP,
      env: 'production',
      version: '1.0.0',
      platform: 'web',
    })
    const put = await fetch(`${agent.url}/v1/sourcemap?${q}`, { method: 'PUT', body: form })
    const answer = (await put.json()) as { success: boolean; errorMsg: string; content: string }
    assert.equal(answer.success, true, answer.errorMsg)
    // The stored zip is named under the RUM folder, never by the server's full path.
    assert.equal(answer.content, `uploaded to [web/${APP}-production-1.0.0.zip]!`)

    const [bundle] = cases.cases
    const point = {
      measurement: 'error',
      tags: { app_id: APP, env: 'production', version: '1.0.0', sdk_name: 'df_web_rum_sdk' },
      fields: { error_stack: bundle.error_stack_in, error_message: 'boom' },
    }
    const write = await fetch(`${agent.url}/v1/write/rum`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([point]),
    })
    assert.equal(write.status, 200)
    const stored = await poll(async () => {
      const res = await fetch(`${agent.url}/v1/query/raw`, {
        method: 'POST',
        body: JSON.stringify({ queries: [{ query: 'R::error:(error_stack_source_base64)' }] }),
      })
      const body = (await res.json()) as { content: { series: { values: unknown[][] }[] }[] | null }
      return body.content?.[0]?.series[0]?.values[0]?.[1] ?? null
    }, 20_000)
    assert.equal(Buffer.from(String(stored), 'base64').toString(), bundle.error_stack_source_out)
  } finally {
    await agent.stop()
    await service.stop()
  }
})
