/**
 * The kill -9 run of `bench:system`: one client writes bodies of `points` unique points, each
 * body its own `batch` tag, to the default system while the agent is killed with SIGKILL `kills`
 * times (and started again on the same data dir). Afterwards, the points stored per batch say
 * what happened to every body: an acknowledged (200) batch short of points is lost, a batch
 * over its points is duplicated; a batch whose write got no answer may be stored or not.
 */
import type { Child } from './child.js'
import { dql, newSystem, removeSystem, startSystem } from './system.js'

export interface Kill9Result {
  kills: number
  sent: number
  acknowledged: number
  stored: number
  lost: number
  duplicated: number
  /** Points of unacknowledged bodies that were stored anyway (allowed). */
  unacknowledgedStored: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function batchBody(batch: number, points: number): string {
  const t = BigInt(Date.now()) * 1_000_000n
  return Array.from(
    { length: points },
    (_, i) => `kill9,batch=b${batch} v=${i}i ${t + BigInt(i)}`,
  ).join('\n')
}

/** Writes until `stop()`; tolerant of the agent vanishing (the URL is read on every write). */
function writer(url: () => string, points: number) {
  const acked = new Set<number>()
  let sent = 0
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      const batch = sent++
      const ok = await fetch(`${url()}/v1/write/metric`, {
        method: 'POST',
        body: batchBody(batch, points),
      }).then(
        (r) => r.status === 200,
        () => false,
      )
      if (ok) acked.add(batch)
      else await sleep(50)
    }
  })()
  return {
    acked,
    sent: () => sent,
    async stop() {
      stopped = true
      await loop
    },
  }
}

async function perBatch(agentUrl: string): Promise<Map<number, number>> {
  const res = await fetch(`${agentUrl}/v1/query/raw`, {
    method: 'POST',
    body: JSON.stringify({
      queries: [
        {
          query: 'M::kill9:(count(v)) BY batch',
          time_range: [Date.now() - 3_600_000, Date.now() + 60_000],
          disable_slimit: true,
        },
      ],
    }),
  })
  const body = (await res.json()) as {
    content: { series: { tags: { batch: string }; values: unknown[][] }[] }[]
  }
  return new Map(
    body.content[0].series.map((s) => [Number(s.tags.batch.slice(1)), Number(s.values[0][1])]),
  )
}

/** Waits until the stored total stops moving for 3 s (the agent has drained its buffer). */
async function settle(agentUrl: string): Promise<void> {
  let last = -1
  let still = 0
  for (let i = 0; i < 240 && still < 6; i++) {
    await sleep(500)
    const [values] = await dql(agentUrl, 'M::kill9:(count(v))')
    const n = Number(values?.[0]?.[1] ?? 0)
    still = n === last ? still + 1 : 0
    last = n
  }
}

export async function kill9Run(
  points: number,
  kills: number,
  everyMs: number,
): Promise<Kill9Result> {
  const s = await newSystem()
  let agent: Child = await startSystem(s)
  const w = writer(() => agent.url, points)
  try {
    for (let k = 0; k < kills; k++) {
      await sleep(everyMs)
      agent.proc.kill('SIGKILL')
      await new Promise((r) => agent.proc.once('exit', r))
      agent = await startSystem(s)
    }
    await sleep(everyMs)
    await w.stop()
    await settle(agent.url)
    const stored = await perBatch(agent.url)
    let lost = 0
    let duplicated = 0
    let unacked = 0
    for (let b = 0; b < w.sent(); b++) {
      const n = stored.get(b) ?? 0
      if (w.acked.has(b)) lost += Math.max(0, points - n)
      else unacked += Math.min(n, points)
      duplicated += Math.max(0, n - points)
    }
    const total = [...stored.values()].reduce((a, n) => a + n, 0)
    return {
      kills,
      sent: w.sent() * points,
      acknowledged: w.acked.size * points,
      stored: total,
      lost,
      duplicated,
      unacknowledgedStored: unacked,
    }
  } finally {
    await w.stop()
    await agent.stop()
    removeSystem(s)
  }
}
