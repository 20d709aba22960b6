/**
 * A real browser (headless Chromium) on a page from one loopback origin sends RUM to the agent
 * on another, as the browser SDK does: line protocol as `text/plain` (no preflight), a JSON
 * write (`application/json`, so a CORS preflight first) and a session replay segment as
 * multipart. Every answer is 2xx and readable by the page (CORS headers right), and the points
 * and the replay are then found in the workspace. Skips with a message where no Chromium is
 * installed.
 */
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { startAgent } from '../helpers/agent-process.js'
import { browserSkip, launchBrowser } from '../helpers/browser.js'
import { waitFor } from '../helpers/sink-server.js'
import { createWorkspaceData } from '../helpers/workspace-process.js'

const APP = 'browser_app'

/**
 * The page: three sends to the agent, their statuses left in `window.results`; a send the
 * browser's CORS check refused would leave an error instead (fetch rejects).
 */
function page(agent: string): string {
  const script = `
const agent = ${JSON.stringify(agent)}
const now = Date.now()
async function send(name, url, init) {
  try {
    const r = await fetch(agent + url, { method: 'POST', ...init })
    return { name, status: r.status }
  } catch (e) {
    return { name, error: String(e) }
  }
}
async function main() {
  const lp = 'view,app_id=${APP},sdk_name=df_web_rum_sdk,view_id=v1 loading_time=120i ' + now
  const json = [{ measurement: 'action', tags: { app_id: '${APP}', sdk_name: 'df_web_rum_sdk' },
    fields: { action_name: 'click' }, time: now }]
  const form = new FormData()
  form.set('app_id', '${APP}')
  form.set('env', 'prod')
  form.set('view_id', 'v1')
  form.set('segment', new Blob([new Uint8Array([31, 139, 8, 0, 9, 9])]), 'segment.gz')
  window.results = [
    await send('lp', '/v1/write/rum?precision=ms', { headers: { 'Content-Type': 'text/plain' }, body: lp }),
    await send('json', '/v1/write/rum?precision=ms', { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) }),
    await send('replay', '/v1/write/rum/replay', { body: form }),
  ]
}
main()
`
  return `<!doctype html><html><head><title>rum</title></head><body><script>${script}</script></body></html>`
}

test(
  'a page on another origin posts RUM and a replay; CORS and every answer are 2xx',
  {
    skip: browserSkip(),
    timeout: 120_000,
  },
  async () => {
    const ws = createWorkspaceData()
    const service = await ws.start()
    const agent = await startAgent({ ENV_DATAWAY: `${service.url}?token=${ws.token}` })
    const site = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      res.end(page(agent.url))
    })
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    const browser = await launchBrowser()
    try {
      // The preflight the JSON write needs, asked directly too: 2xx, with the page's origin.
      const pre = await fetch(`${agent.url}/v1/write/rum`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      })
      assert.ok(pre.status >= 200 && pre.status < 300, `preflight ${pre.status}`)
      assert.equal(pre.headers.get('access-control-allow-origin'), origin)

      const tab = await browser.browser.newPage()
      const answers: { what: string; status: number; cors: string | undefined }[] = []
      tab.on('response', (r) => {
        if (!r.url().startsWith(agent.url)) return
        const what = `${r.request().method()} ${r.url()}`
        answers.push({ what, status: r.status(), cors: r.headers()['access-control-allow-origin'] })
      })
      await tab.goto(`${origin}/`)
      await tab.waitForFunction('Array.isArray(window.results)', { timeout: 30_000 })
      const results = await tab.evaluate('window.results')
      assert.deepEqual(results, [
        { name: 'lp', status: 200 },
        { name: 'json', status: 200 },
        { name: 'replay', status: 200 },
      ])
      // The three sends and the preflight of the JSON one, each 2xx with the page's origin.
      assert.deepEqual(answers.map((a) => a.what.split(' ')[0]).sort(), [
        'OPTIONS',
        'POST',
        'POST',
        'POST',
      ])
      for (const a of answers) {
        assert.ok(a.status >= 200 && a.status < 300, `${a.what} answered ${a.status}`)
        assert.equal(a.cors, origin, a.what)
      }

      const query = async (dql: string) => {
        const res = await fetch(`${agent.url}/v1/query/raw`, {
          method: 'POST',
          body: JSON.stringify({ queries: [{ query: dql }] }),
        })
        const body = (await res.json()) as {
          content: { series: { values: unknown[][] }[] }[] | null
        }
        return body.content?.[0]?.series[0]?.values ?? []
      }
      await waitFor(async () => (await query('R::view:(loading_time)')).length > 0, 30_000, 'view')
      assert.deepEqual(
        (await query('R::view:(loading_time)')).map((v) => v[1]),
        [120],
      )
      await waitFor(
        async () => (await query('R::action:(action_name)')).length > 0,
        30_000,
        'action',
      )
      assert.deepEqual(
        (await query('R::action:(action_name)')).map((v) => v[1]),
        ['click'],
      )
      let replays: { app_id: string; size: number }[] = []
      await waitFor(
        async () => {
          const r = await fetch(`${service.url}/api/v1/rum/replay/list`, {
            headers: { 'DF-API-KEY': ws.key },
          })
          replays = ((await r.json()) as { content: typeof replays }).content
          return replays.length > 0
        },
        30_000,
        'the replay in the workspace',
      )
      assert.deepEqual(
        replays.map((r) => [r.app_id, r.size]),
        [[APP, 6]],
      )
    } finally {
      await browser.close()
      site.close()
      await agent.stop()
      await service.stop()
    }
  },
)
