/**
 * Workspace UI benchmark (`npm run bench:ui`): how long each page of the web UI takes to show
 * its data in a real headless Chromium when the workspace holds BENCH_UI_POINTS (1M) points:
 * 80% cpu metrics of 50 hosts over the last hour, 20% log lines, plus the 50 HOST objects.
 * The points go in through the workspace's own write route (gzip'd protobuf, as agents upload).
 * Each page is opened cold once, then 5 times; the median and the worst are printed against the
 * 1 s target, with the workspace's peak RSS. Skips with a message where Chromium is missing.
 */
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import puppeteer, { type Page } from 'puppeteer-core'
import { encodePoint } from '../src/decode/codec/protobuf.js'
import { PbWriter } from '../src/decode/codec/pb-writer.js'
import { parseLines } from '../src/decode/lp/parse.js'
import { Accounts } from '../src/workspace/store/accounts.js'
import { Db } from '../src/workspace/store/db.js'
import { startChild, type Child } from './lib/child.js'
import { percentile, postOnce, type LoadResult } from './lib/load.js'

const POINTS = Number(process.env.BENCH_UI_POINTS ?? 1_000_000)
const HOSTS = 50
const BODY_POINTS = 5000
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p))
const here = (p: string) => new URL(p, import.meta.url).pathname

/** The i-th line of a category's share of the data, spread over the last hour. */
function line(category: 'metric' | 'logging', i: number, count: number, now: number): string {
  const ns = BigInt(now - 3_600_000 + Math.floor((i * 3_600_000) / count)) * 1_000_000n
  const host = `host-${i % HOSTS}`
  if (category === 'metric')
    return `cpu,host=${host},cpu=cpu-total usage_idle=${(i * 7) % 100},usage_user=${i % 50},usage_total=${(i * 3) % 100} ${ns}`
  const status = ['info', 'warning', 'error'][i % 3]
  return `bench_app,host=${host},service=web,status=${status} message="request ${i} served" ${ns}`
}

function body(lines: string[]): Buffer {
  const text = lines.join('\n')
  const w = new PbWriter()
  for (const p of parseLines(text, Buffer.from(text)).points) encodePoint(w, p)
  return zlib.gzipSync(w.finish(), { level: 1 })
}

/** Sends every body on 4 connections; a body refused under load (429/503) is sent again. */
async function post(url: string, bodies: Buffer[]): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
  const headers = {
    'Content-Type': 'application/protobuf; proto=com.guance.Point',
    'Content-Encoding': 'gzip',
  }
  const sendOne = async (b: Buffer) => {
    for (;;) {
      const r: LoadResult = { ok: 0, failed: 0, seconds: 0, latenciesMs: [], statuses: {} }
      await postOnce(agent, new URL(url), b, headers, r)
      if (r.ok) return
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const queue = [...bodies]
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let b = queue.shift(); b; b = queue.shift()) await sendOne(b)
    }),
  )
  agent.destroy()
}

async function load(ws: Child, token: string): Promise<void> {
  const now = Date.now()
  const t0 = performance.now()
  for (const [category, share] of [
    ['metric', 0.8],
    ['logging', 0.2],
  ] as const) {
    const count = Math.round(POINTS * share)
    for (let start = 0; start < count; start += BODY_POINTS * 10) {
      const bodies: Buffer[] = []
      for (let b = start; b < Math.min(count, start + BODY_POINTS * 10); b += BODY_POINTS) {
        const n = Math.min(BODY_POINTS, count - b)
        bodies.push(body(Array.from({ length: n }, (_, k) => line(category, b + k, count, now))))
      }
      await post(`${ws.url}/v1/write/${category}?token=${token}`, bodies)
    }
  }
  const hosts = Array.from(
    { length: HOSTS },
    (_, i) =>
      `HOST,name=host-${i},host=host-${i} os="linux",num_cpu=4i,mem_total=8589934592i ${BigInt(now) * 1_000_000n}`,
  )
  await post(`${ws.url}/v1/write/object?token=${token}`, [body(hosts)])
  const secs = (performance.now() - t0) / 1000
  console.log(
    `loaded ${POINTS.toLocaleString('en')} points in ${secs.toFixed(1)} s (${Math.round(POINTS / secs).toLocaleString('en')} points/s)`,
  )
}

const PAGES: [string, string, string][] = [
  [
    'explore, avg by host',
    '#/explore?q=M%3A%3Acpu%3A(avg(usage_idle))%20BY%20host&range=1h',
    "document.querySelector('#result[data-lines]')",
  ],
  ['hosts', '#/hosts', "document.querySelector('#hosts tr:nth-child(2)')"],
  [
    'host page, 4 charts',
    '#/host/host-1?range=1h',
    "document.querySelectorAll('.grid .chart[data-lines]').length === 4",
  ],
  [
    'logs, first page',
    '#/logs?source=bench_app&range=1h',
    "document.querySelector('#log-rows tr')",
  ],
  ['dashboards', '#/dashboards', "document.querySelector('main[data-ready]')"],
]

async function timePage(page: Page, url: string, ready: string): Promise<number> {
  // From a page of the same site (the session cookie is SameSite=Strict), a full page load.
  await page.goto(new URL('/ui/style.css', url).href)
  const t0 = performance.now()
  await page.goto(url)
  await page.waitForFunction(ready, { timeout: 30_000 }).catch(async (e: unknown) => {
    const text = await page.evaluate('document.body.innerText').catch(() => '')
    throw new Error(`${url}: ${ready} never held; the page shows: ${String(text)}`, {
      cause: e,
    })
  })
  return performance.now() - t0
}

async function measure(base: string, key: string): Promise<void> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  try {
    const page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    await page.goto(`${base}/ui/login`)
    await page.type('input[name=key]', key)
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
    for (const [name, hash, ready] of PAGES) {
      const cold = await timePage(page, `${base}/ui/${hash}`, ready)
      const warm: number[] = []
      for (let i = 0; i < 5; i++) warm.push(await timePage(page, `${base}/ui/${hash}`, ready))
      const worst = Math.max(cold, ...warm)
      console.log(
        `${name.padEnd(22)} cold ${cold.toFixed(0).padStart(5)} ms, median ${percentile(warm, 50).toFixed(0).padStart(5)} ms, worst ${worst.toFixed(0).padStart(5)} ms  ${worst < 1000 ? 'under' : 'OVER'} the 1 s target`,
      )
    }
  } finally {
    await browser.close()
  }
}

async function main(): Promise<void> {
  if (!CHROMIUM) return console.log('skipped: no Chromium installed (apt-get install chromium)')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-ui-'))
  let ws: Child | null = null
  try {
    const db = await Db.open({ dir, memoryLimit: 1024 ** 3, threads: 0 })
    const accounts = new Accounts(db)
    const w = await accounts.create('bench')
    const { key } = await accounts.createKey(w.name, 'bench')
    await db.close()
    ws = await startChild(
      [here('../src/main.js'), 'workspace'],
      { ENV_WORKSPACE_DATA_DIR: dir, ENV_WORKSPACE_LISTEN: '127.0.0.1:0', ENV_LOG_LEVEL: 'info' },
      /"event":"workspace_started","listen":"([^"]+)"/,
    )
    await load(ws, w.token)
    await measure(ws.url, key)
    console.log(`workspace peak RSS ${ws.peakRssMb().toFixed(0)} MB`)
  } finally {
    await ws?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

void main()
