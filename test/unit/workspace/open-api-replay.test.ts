/**
 * Replays the requests real Open API clients send (test/fixtures/open-api-replay.json, written
 * by hand from the Terraform provider's `internal/api`, the Grafana data source's routes, the
 * DataFlux Func key check and the documentation's examples; guance-cli makes no calls of its
 * own, it writes Terraform) in order against one workspace, through `app.request()`, and
 * compares every answer whole with test/golden/open-api-replay.json. What differs per run is
 * replaced before comparing: the workspace id, the key and its id, random dashboard ids, times
 * and ids derived from the workspace id. `UPDATE_GOLDEN=1` rewrites the golden file; format it
 * with Prettier and review the diff before committing it.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, test } from 'node:test'
import type { TestWorkspace } from '../../helpers/workspace.js'
import { startWorkspaceApp, type WorkspaceApp } from '../../helpers/workspace-app.js'

interface Step {
  client: string
  why: string
  method: string
  path: string
  body?: unknown
  rawBody?: string
}

const steps = JSON.parse(
  fs.readFileSync(new URL('../../fixtures/open-api-replay.json', import.meta.url), 'utf8'),
) as Step[]
const GOLDEN = new URL('../../golden/open-api-replay.json', import.meta.url)
const update = process.env.UPDATE_GOLDEN === '1'
const golden = (update ? [] : JSON.parse(fs.readFileSync(GOLDEN, 'utf8'))) as unknown[]

let w: TestWorkspace
let app: WorkspaceApp
let swaps: [string, string][] = []
let last = ''

before(async () => {
  ;({ w, app } = await startWorkspaceApp())
  const ws = await w.service.ensureWorkspace('test')
  const [key] = await w.service.deps!.accounts.listKeys('test')
  swaps = [
    [w.key, '<key>'],
    [key.id, '<key id>'],
    [ws.id, '<workspace>'],
  ]
})
after(() => {
  if (update) fs.writeFileSync(GOLDEN, `${JSON.stringify(golden, null, 2)}\n`)
  return w.stop()
})

const TIME_KEYS = new Set(['createAt', 'updateAt'])

/** The answer with what differs per run replaced by names. */
function normalise(v: unknown, key = ''): unknown {
  if (TIME_KEYS.has(key) && typeof v === 'number') return '<time>'
  if (typeof v === 'string') {
    let s = v
    for (const [from, to] of swaps) s = s.split(from).join(to)
    return s
      .replace(/^dsbd_[0-9a-f]{32}$/, '<random dashboard id>')
      .replace(/^notes_[0-9a-f]{32}$/, '<random note id>')
      .replace(/^(tag|chrt)_[0-9a-f]{32}$/, '<$1 digest>')
      .replace(/^[0-9a-f]{32}$/, '<trace id>')
  }
  if (Array.isArray(v)) return v.map((x) => normalise(x))
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [normalise(k) as string, normalise(x, k)]),
    )
  return v
}

for (const [i, s] of steps.entries()) {
  test(`replay ${i} (${s.client}): ${s.why}`, async () => {
    const body = s.rawBody ?? (s.body === undefined ? undefined : JSON.stringify(s.body))
    const res = await app.request(s.path.replace('{last}', last), {
      method: s.method,
      headers: { 'DF-API-KEY': w.key, 'Content-Type': 'application/json;charset=UTF-8' },
      body,
    })
    const answer = (await res.json()) as { content?: { uuid?: string } }
    if (typeof answer.content?.uuid === 'string') last = answer.content.uuid
    const got = { status: res.status, answer: normalise(answer) }
    if (update) golden[i] = got
    else assert.deepEqual(got, golden[i])
  })
}
