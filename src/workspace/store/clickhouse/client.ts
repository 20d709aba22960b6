/**
 * A small ClickHouse client over the HTTP interface (undici), made for 18.16 and later: SQL
 * text in, `JSONCompact` out (64-bit integers arrive quoted and come back as bigint), RowBinary
 * bodies for inserts. Invariants:
 * - Every call has a deadline the caller sets; the request is aborted when it passes, whatever
 *   the server does (a frozen node answers nothing, and `max_execution_time` is only a hint to
 *   a live one). A call never outlives its deadline by more than the abort.
 * - Several URLs are replicas or shards of one service: a call that could not reach one (refused,
 *   reset before an answer) goes to the next, within the same deadline. A call the server
 *   answered with an error is never retried here: whether that is safe (inserts) is the
 *   caller's to decide.
 * - At most `maxConnections` sockets per URL; further calls wait in undici's queue, inside
 *   their deadline.
 * - Errors are typed: `queryInvalid` for a statement ClickHouse refuses as malformed or
 *   mistyped, `queryTimeout` past the deadline, `storageFailed` (503, retryable) for anything
 *   else, with ClickHouse's code in `chCode` where it sent one.
 * - A call that got no answer has `health` (health.ts) ping the nodes; while none answers,
 *   calls fail at once with 503 and `Retry-After` instead of waiting out their deadlines.
 */
import { Pool, type Dispatcher } from 'undici'
import { FerryError } from '../../../errors.js'
import { ClickHouseError, isTimeout, unreachable } from './errors.js'
import { ClickHouseHealth } from './health.js'

export interface ClickHouseClientOptions {
  urls: string[]
  user: string
  password: string
  /** PEM text of a CA to trust, a client certificate and its key (empty: none). */
  tls: { ca: string; cert: string; key: string; insecureSkipVerify: boolean }
  connectTimeoutMs: number
  maxConnections: number
  /**
   * Every call to the node the last one reached, moving on only when it cannot be reached (a
   * cluster's replicas lag each other: reads then see this instance's own writes); otherwise
   * calls go round the URLs.
   */
  sticky?: boolean
  /** How often a down service is pinged again (ms). */
  probeEveryMs?: number
}

export interface Result {
  columns: string[]
  types: string[]
  rows: unknown[][]
}

export interface CallOptions {
  /** Milliseconds from now; the request is aborted past it. */
  timeoutMs: number
  settings?: Record<string, string | number>
}

function poolFor(url: string, o: ClickHouseClientOptions): Pool {
  const t = o.tls
  return new Pool(url, {
    connections: o.maxConnections,
    connect: {
      timeout: o.connectTimeoutMs,
      ...(t.ca ? { ca: t.ca } : {}),
      ...(t.cert ? { cert: t.cert, key: t.key } : {}),
      rejectUnauthorized: !t.insecureSkipVerify,
    },
  })
}

export class ClickHouseClient {
  private readonly pools: Pool[]
  private next = 0
  readonly health: ClickHouseHealth

  constructor(private readonly opts: ClickHouseClientOptions) {
    if (!opts.urls.length) throw new FerryError('configInvalid', 'no ClickHouse URL')
    this.pools = opts.urls.map((u) => poolFor(u, opts))
    this.health = new ClickHouseHealth({
      ping: (ms) => this.ping(ms),
      probeTimeoutMs: opts.connectTimeoutMs,
      probeEveryMs: opts.probeEveryMs ?? 1000,
    })
  }

  /** Whether any node answers `/ping` within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<boolean> {
    const one = async (pool: Pool) => {
      const res = await pool.request({
        method: 'GET',
        path: '/ping',
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      })
      await res.body.text()
      return res.statusCode === 200
    }
    const answers = await Promise.all(this.pools.map((p) => one(p).catch(() => false)))
    return answers.includes(true)
  }

  /** A SELECT (or SHOW, DESCRIBE, EXISTS), read as JSONCompact. */
  async query(sql: string, o: CallOptions): Promise<Result> {
    const text = await this.call(`${sql}\nFORMAT JSONCompact`, null, o)
    const body = JSON.parse(text) as { meta: { name: string; type: string }[]; data: unknown[][] }
    const types = body.meta.map((m) => m.type)
    return {
      columns: body.meta.map((m) => m.name),
      types,
      rows: body.data.map((row) => row.map((v, i) => fromJson(v, types[i]))),
    }
  }

  /** A statement with no result (DDL, ALTER, INSERT ... VALUES). */
  async command(sql: string, o: CallOptions): Promise<void> {
    await this.call(sql, null, o)
  }

  /** Rows encoded as RowBinary (rowbinary.ts) or a Native block (native.ts) into `table`. */
  async insert(
    table: string,
    columns: string[],
    body: Buffer,
    o: CallOptions,
    format: 'RowBinary' | 'Native' = 'RowBinary',
  ): Promise<void> {
    await this.call(`INSERT INTO ${table} (${columns.join(', ')}) FORMAT ${format}`, body, o)
  }

  private async call(sql: string, body: Buffer | null, o: CallOptions): Promise<string> {
    this.health.admit()
    try {
      return await this.reach(sql, body, o)
    } catch (e) {
      // No answer at all (as opposed to an error ClickHouse sent): is the service there?
      const silent = e instanceof ClickHouseError ? e.chCode === null : isTimeout(e)
      if (silent) void this.health.suspect((e as Error).message)
      throw e
    }
  }

  private async reach(sql: string, body: Buffer | null, o: CallOptions): Promise<string> {
    const deadline = Date.now() + o.timeoutMs
    let last: unknown = null
    const first = this.opts.sticky ? this.next : this.next++
    for (let i = 0; i < this.pools.length; i++) {
      const left = deadline - Date.now()
      if (left <= 0) break
      const n = (first + i) % this.pools.length
      try {
        const text = await this.once(this.pools[n], sql, body, o, left)
        if (this.opts.sticky) this.next = n
        return text
      } catch (e) {
        if (!unreachable(e)) throw this.typed(e, o.timeoutMs)
        last = e
      }
    }
    if (last && Date.now() < deadline) throw this.typed(last, o.timeoutMs)
    throw new FerryError('queryTimeout', `ClickHouse did not answer within ${o.timeoutMs} ms`)
  }

  private async once(
    pool: Pool,
    sql: string,
    body: Buffer | null,
    o: CallOptions,
    leftMs: number,
  ): Promise<string> {
    const params = new URLSearchParams({
      max_execution_time: String(Math.max(1, Math.ceil(leftMs / 1000))),
      output_format_json_quote_64bit_integers: '1',
    })
    for (const [k, v] of Object.entries(o.settings ?? {})) params.set(k, String(v))
    // A statement travels in the body, unless the body is an insert's rows.
    if (body !== null) params.set('query', sql)
    const headers: Record<string, string> = { 'X-ClickHouse-User': this.opts.user }
    if (this.opts.password) headers['X-ClickHouse-Key'] = this.opts.password
    const req: Dispatcher.RequestOptions = {
      method: 'POST',
      path: `/?${params}`,
      headers,
      body: body ?? sql,
      signal: AbortSignal.timeout(leftMs),
      headersTimeout: leftMs,
      bodyTimeout: leftMs,
    }
    const res = await pool.request(req)
    const text = await res.body.text()
    if (res.statusCode !== 200) {
      const m = /Code: (\d+)/.exec(text)
      throw new ClickHouseError(text.trim().slice(0, 2000), m ? Number(m[1]) : null)
    }
    return text
  }

  private typed(e: unknown, timeoutMs: number): FerryError {
    if (e instanceof FerryError) return e
    const name = (e as Error).name
    if (
      name === 'TimeoutError' ||
      name === 'AbortError' ||
      /TIMEOUT/.test(String((e as { code?: string }).code))
    )
      return new FerryError('queryTimeout', `ClickHouse did not answer within ${timeoutMs} ms`, {
        cause: e,
      })
    return new ClickHouseError(`ClickHouse unreachable: ${(e as Error).message}`, null)
  }

  async close(): Promise<void> {
    this.health.close()
    await Promise.all(this.pools.map((p) => p.close()))
  }
}

/** A JSONCompact value as the engine's callers expect it (DuckDB's shapes). */
function fromJson(v: unknown, type: string): unknown {
  if (v === null) return null
  const t = type.startsWith('Nullable(') ? type.slice(9, -1) : type
  if (t === 'Int64' || t === 'UInt64') return BigInt(v as string)
  if (t === 'UInt8' && typeof v === 'number') return v !== 0
  return v
}
