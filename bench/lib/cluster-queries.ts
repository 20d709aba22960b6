/**
 * The query part of `bench:cluster`: `points` cpu points of 100 hosts over the last hour and a
 * tenth as many nginx log lines, made by ClickHouse itself (`INSERT ... SELECT FROM numbers`)
 * after one seed body per table went through the workspace (so its catalog has the columns;
 * the cpu points in the series layout, their series rows beside them),
 * then each query through an instance's /v1/query/raw: the median of 20 warm runs.
 */
import { percentile } from './load.js'
import { PREFIX, type ClickHouse } from './cluster-targets.js'

export const QUERIES: [string, string][] = [
  ['avg by host', 'M::cpu:(avg(usage_idle)) [1h::1m] BY host'],
  ['one host', "M::cpu:(avg(usage_idle)) {host='h7'} [1h::1m]"],
  ['log text match', "L::nginx:(message) {message = match('item/42 ')} [1h] LIMIT 50"],
  ['newest row per host', 'M::cpu:(last(usage_idle)) [1h] BY host'],
]

const RUNS = 20

async function write(url: string, token: string, category: string, body: string) {
  const res = await fetch(`${url}/v1/write/${category}?token=${token}`, { method: 'POST', body })
  if (res.status !== 200) throw new Error(`seed ${category}: ${res.status} ${await res.text()}`)
}

/** Fills the two tables; the seconds ClickHouse took. */
export async function fillClickHouse(ch: ClickHouse, url: string, points: number): Promise<number> {
  const now = BigInt(Date.now()) * 1_000_000n
  const start = now - 3_600_000_000_000n
  await write(
    url,
    ch.token,
    'metric',
    `cpu,host=h0,cpu=cpu-total,region=west usage_idle=1,usage_user=1,usage_system=1 ${start}`,
  )
  await write(url, ch.token, 'logging', `nginx,host=h0,status=200 message="GET /" ${start}`)
  const name = `${PREFIX}_w_${ch.wsId.replace(/^wksp_/, '')}`
  const [db, seriesDb] = [`\`${name}\``, `\`${name}_series\``]
  const step = 3_600_000_000_000n / BigInt(points)
  const logStep = step * 10n
  const t0 = performance.now()
  // The series layout (docs/clickhouse.md): the id is sipHash64 of the canonical tag set,
  // computed here by ClickHouse as the workspace computes it; one series row per host and day.
  const host = `concat('h', toString(number % 100))`
  const region = `if(number % 2 = 0, 'east', 'west')`
  const sid = `sipHash64(concat('cpu=cpu-total,host=', ${host}, ',region=', ${region}))`
  const day = (ns: bigint) => `toDate(intDiv(${ns}, 1000000000))`
  await ch.command(
    `INSERT INTO ${seriesDb}.\`M::cpu\` (_sid, _day, cpu, host, region)
     SELECT ${sid}, arrayJoin([${day(start)}, ${day(now)}]), 'cpu-total', ${host}, ${region}
     FROM numbers(100)`,
  )
  await ch.command(
    `INSERT INTO ${db}.\`M::cpu\` (time, _sid, usage_idle, usage_user, usage_system)
     SELECT toInt64(${start}) + toInt64(number) * ${step}, ${sid}, (number % 1000) / 10,
       (number % 300) / 10, (number % 200) / 10 FROM numbers(${points})`,
  )
  await ch.command(
    `INSERT INTO ${db}.\`L::nginx\` (time, host, status, message)
     SELECT toInt64(${start}) + toInt64(number) * ${logStep}, concat('h', toString(number % 100)),
       toString(200 + number % 5), concat('GET /api/item/', toString(number % 5000), ' HTTP/1.1')
     FROM numbers(${Math.floor(points / 10)})`,
  )
  return (performance.now() - t0) / 1000
}

/** The median of 20 warm runs of `query` on `url` (one cold run first), in ms. */
export async function queryP50(url: string, token: string, query: string): Promise<number> {
  const once = async () => {
    const t0 = performance.now()
    const res = await fetch(`${url}/v1/query/raw?token=${token}`, {
      method: 'POST',
      body: JSON.stringify({ queries: [{ query }] }),
    })
    const body = (await res.json()) as { content?: { series: unknown[] }[] }
    if (res.status !== 200 || !body.content?.[0]?.series.length)
      throw new Error(`${query}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`)
    return performance.now() - t0
  }
  await once()
  const ms: number[] = []
  for (let i = 0; i < RUNS; i++) ms.push(await once())
  return percentile(ms, 50)
}
