/**
 * An HTTP task's `post_script`: a Platypus script that sees the response as `response`
 * (`status_code`, `header`, `body`) and the variables as `vars`, and sets `result`
 * (`is_failed`, `error_message`) and `vars`, as in the reference. It runs in a sandbox engine
 * of its own with a short time limit, so a spinning script costs at most that long.
 */
import { PipelineEngine } from '../pipeline/engine.js'
import { newPl, setKey } from '../pipeline/lib/pl-point.js'
import { localZone } from '../shared/time-zone.js'

export interface ScriptResponse {
  status_code: number
  header: Record<string, string[]>
  body: string
}

export interface PostScriptResult {
  result: { is_failed: boolean; error_message: string }
  vars: Record<string, unknown>
}

const LIMITS = { memoryBytes: 32 << 20, stackBytes: 256 << 10, batchTimeoutMs: 1000 }
const CAPS = { maxCreatedPoints: 0, maxOutputBytes: 1 << 20 }
let engine: Promise<PipelineEngine> | null = null

function wrap(script: string): string {
  return `content = load_json(_)
response = content["response"]
vars = content["vars"]
result = {}
${script}
add_key(result, result)
add_key(vars, vars)
`
}

function asObject(v: unknown): Record<string, unknown> {
  if (typeof v === 'string') {
    try {
      return asObject(JSON.parse(v))
    } catch {
      return {}
    }
  }
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {}
}

/** Runs the script; throws `run pipeline failed: ...` as the reference words it. */
export async function runPostScript(
  script: string,
  response: ScriptResponse,
  vars: Record<string, unknown> = {},
): Promise<PostScriptResult> {
  engine ??= PipelineEngine.create({ ...LIMITS, caps: CAPS, timezone: localZone() })
  const e = await engine
  const errors = e.load({
    category: 'logging',
    name: 'post_script',
    lang: 'p',
    source: wrap(script),
    file: 'post_script.p',
  })
  if (errors.length) throw new Error(`run pipeline failed: ${errors[0].error}`)
  const p = newPl('post_script', BigInt(Date.now()) * 1_000_000n)
  setKey(p, 'message', JSON.stringify({ response, vars }))
  e.run('logging', 'post_script', [p])
  if (p.error !== null) throw new Error(`run pipeline failed: ${p.error}`)
  const result = asObject(p.fields.get('result'))
  return {
    result: {
      is_failed: result.is_failed === true,
      error_message: typeof result.error_message === 'string' ? result.error_message : '',
    },
    vars: asObject(p.fields.get('vars')),
  }
}
