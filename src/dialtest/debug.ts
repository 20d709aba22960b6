/**
 * `POST /v1/dialtesting/debug` (spec 4.12): validate the request in the reference's order
 * (class, task shape, stop status, variables, task check, templates, target), run the task
 * under the concurrency gate, and answer `{cost, status, error_msg, traceroute, fields}`.
 */
import { FerryError } from '../errors.js'
import { formatDuration } from '../shared/duration.js'
import { CLASSES, type TaskClass } from './classes.js'
import type { DialGate } from './gate.js'
import { RefusedTarget, type NetGuard } from './guard.js'
import type { DebugContent, DialResult } from './types.js'
import { funcsOf, hideSecrets, publicVars, renderDeep, resolveVars, type Globals } from './vars.js'
import type { ConfigVar } from './types.js'

export interface DialtestDeps {
  guard: NetGuard
  gate: DialGate
  userAgent: string
  /** How long one task may run (its request's timeout). */
  timeoutMs: number
}

/** Keys of the reference's base Task, left out of the `task` field. */
const BASE_KEYS = new Set([
  'external_id',
  'name',
  'ak',
  'status',
  'cur_status',
  'frequency',
  'region',
  'owner_external_id',
  'post_url',
  'tags',
  'labels',
  'config_vars',
  'success_when_logic',
  'update_time',
  'workspace_language',
])

const invalid = (msg: string) => new FerryError('invalidRequest', msg)

function taskOf(raw: Record<string, unknown>): Record<string, unknown> {
  const t = raw.task
  if (t === null || typeof t !== 'object' || Array.isArray(t))
    throw invalid(
      `json.Unmarshal failed: json: cannot unmarshal ${Array.isArray(t) ? 'array' : typeof t} into Go value of type dialtesting.Task, task json: ${JSON.stringify(t ?? null)}`,
    )
  return t as Record<string, unknown>
}

async function checkTargets(cls: TaskClass, task: unknown, guard: NetGuard): Promise<void> {
  if (!guard.active) return
  for (const host of cls.hosts(task)) {
    try {
      await guard.resolve(host)
    } catch (e) {
      if (e instanceof RefusedTarget) throw invalid(e.message)
      throw invalid(`dest host is not valid: lookup ip failed: ${(e as Error).message}`)
    }
  }
}

function prepare(cls: TaskClass, task: Record<string, unknown>, globals: Globals) {
  let vars: ConfigVar[]
  try {
    vars = resolveVars(task.config_vars as ConfigVar[] | undefined, globals)
    cls.check(task)
  } catch (e) {
    throw invalid(`task check failed: ${(e as Error).message}`)
  }
  const fm = funcsOf(vars)
  if (!cls.renders) return { task, vars, fm }
  try {
    return { task: renderDeep(task, fm), vars, fm }
  } catch (e) {
    throw invalid(`render template error: ${(e as Error).message}`)
  }
}

export async function dialDebug(raw: unknown, deps: DialtestDeps): Promise<DebugContent> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw invalid('json: cannot unmarshal into Go value of type dialtesting.taskPayload')
  const r = raw as Record<string, unknown>
  const kind = String(r.task_type ?? '').toUpperCase()
  const cls = CLASSES[kind]
  if (!cls) throw new FerryError('invalidClass', `unknown task type:${kind}`)
  const rawTask = taskOf(r)
  if ((rawTask.cur_status ?? rawTask.status) === 'stop') throw invalid('the task status is stop')
  const { task, vars, fm } = prepare(cls, rawTask, (r.variables ?? {}) as Globals)
  await checkTargets(cls, task, deps.guard)
  const started = process.hrtime.bigint()
  const result = await deps.gate.run(() =>
    cls.run(task, {
      guard: deps.guard,
      userAgent: deps.userAgent,
      fm,
      deadline: Date.now() + deps.timeoutMs,
    }),
  )
  return content(result, rawTask, vars, process.hrtime.bigint() - started)
}

function content(
  res: DialResult,
  rawTask: Record<string, unknown>,
  vars: ConfigVar[],
  ns: bigint,
): DebugContent {
  const own = Object.fromEntries(Object.entries(rawTask).filter(([k]) => !BASE_KEYS.has(k)))
  const fields: Record<string, unknown> = {
    ...res.fields,
    ...res.tags,
    config_vars: publicVars(vars),
    task: JSON.stringify(own),
  }
  if (res.postVars) fields.post_script_variables = JSON.stringify(res.postVars)
  hideSecrets(
    fields,
    vars.filter((v) => v.secure).map((v) => v.value ?? ''),
  )
  const failed = 'fail_reason' in fields
  return {
    cost: formatDuration(ns),
    status: failed ? 'fail' : 'success',
    error_msg: failed ? String(fields.fail_reason) : '',
    traceroute: res.traceroute ?? [],
    fields,
  }
}
