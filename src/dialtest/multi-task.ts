/**
 * The multi-step dial test's task: its steps (HTTP, whose task is an HTTP dial test's JSON, or
 * wait), and the checks the reference makes before running one.
 */
import { checkHttpTask } from './http/task.js'
import type { HttpTask } from './http/types.js'
import { isValidVariableName } from './template.js'

export interface Step {
  type?: string
  name?: string
  allow_failure?: boolean
  retry?: { retry?: number; interval?: number }
  task?: string
  value?: number
  extracted_vars?: { name: string; field: string; secure?: boolean; value?: string }[]
}

export interface MultiTask {
  name?: string
  steps?: Step[]
  tags?: Record<string, string>
}

export function stepTask(s: Step): HttpTask {
  try {
    return JSON.parse(s.task ?? '') as HttpTask
  } catch (e) {
    throw new Error(`new task failed: ${(e as Error).message}`)
  }
}

export function checkMultiTask(t: MultiTask): void {
  for (const s of t.steps ?? []) {
    if (s.retry && ((s.retry.retry ?? 0) < 0 || (s.retry.retry ?? 0) > 5))
      throw new Error('retry should be in 0 ~ 5')
    if (s.retry && ((s.retry.interval ?? 0) < 0 || (s.retry.interval ?? 0) > 5000))
      throw new Error('retry interval should be in 0 ~ 5000')
    if (s.type === 'wait') {
      if (!(Number(s.value) >= 1 && Number(s.value) <= 180))
        throw new Error('wait step value should be in 1 ~ 180')
    } else if (s.type === 'http') {
      if (!s.task) throw new Error('http step task should not be empty')
      try {
        checkHttpTask(stepTask(s))
      } catch (e) {
        throw new Error(`check task failed: ${(e as Error).message}`)
      }
      for (const v of s.extracted_vars ?? [])
        if (!isValidVariableName(v.name)) throw new Error(`invalid variable name ${v.name}`)
    } else throw new Error('step type should be wait or http')
  }
}
