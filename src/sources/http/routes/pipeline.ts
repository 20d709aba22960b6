/**
 * `POST /v1/pipeline/debug` (spec 4.11): validates the request here (category, JSON shape)
 * and runs it in a decode worker, never on this thread: a script may spin for its whole
 * time limit.
 */
import type { Hono } from 'hono'
import { FerryError, fromPayload } from '../../../errors.js'
import { isCategory } from '../../../shared/category.js'
import type { DebugTask } from '../../../pipeline/debug/types.js'
import { compileLinear } from '../../../pipeline/regex/linear.js'
import { scriptName } from '../../../pipeline/scripts/compile.js'
import { readBody } from '../../../http/body.js'
import type { HttpDeps, HttpEnv } from '../deps.js'

const MAX_REQUEST_BYTES = 64 * 1024 * 1024

function parseRequest(raw: unknown): Omit<DebugTask, 'kind' | 'now'> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new FerryError('badRequest', 'the body must be a JSON object')
  const r = raw as Record<string, unknown>
  const category = String(r.category ?? '')
  if (!isCategory(category))
    throw new FerryError('invalidCategory', `invalid category ${JSON.stringify(category)}`)
  if (typeof r.script_name !== 'string' || r.script_name === '')
    throw new FerryError('invalidPipeline', 'script_name is required')
  const pipeline = r.pipeline
  if (typeof pipeline !== 'object' || pipeline === null)
    throw new FerryError(
      'invalidPipeline',
      'pipeline must map categories to {script name: base64 source}',
    )
  const data = r.data ?? []
  if (!Array.isArray(data) || !data.every((d) => typeof d === 'string'))
    throw new FerryError('invalidData', 'data must be an array of base64 strings')
  return {
    pipeline: pipeline as DebugTask['pipeline'],
    scriptName: scriptName(r.script_name),
    category,
    data: data as string[],
    dataType: typeof r.data_type === 'string' ? r.data_type : '',
    encode: typeof r.encode === 'string' ? r.encode : '',
    benchmark: r.benchmark === true,
    multilineMatch: typeof r.multiline_match === 'string' ? r.multiline_match : null,
  }
}

export function pipelineRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  app.post('/v1/pipeline/debug', async (c) => {
    const pl = deps.pipeline
    if (!pl)
      throw new FerryError(
        'invalidPipeline',
        'the pipeline is disabled ([pipeline] enable = false)',
      )
    const bytes = await readBody(c.env?.incoming, c.req.raw, MAX_REQUEST_BYTES)
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch (e) {
      throw new FerryError('badRequest', `the body is not JSON: ${(e as Error).message}`)
    }
    const task: DebugTask = {
      kind: 'pipeline-debug',
      now: BigInt(Date.now()) * 1_000_000n,
      ...parseRequest(raw),
    }
    if (task.multilineMatch !== null) {
      try {
        compileLinear(task.multilineMatch)
      } catch (e) {
        throw new FerryError(
          'invalidData',
          `multiline_match is not an RE2 expression: ${(e as Error).message}`,
        )
      }
    }
    const r = await pl.debug(task)
    if (!r.ok) throw fromPayload(r.error)
    return c.json({ content: r.content })
  })
}
