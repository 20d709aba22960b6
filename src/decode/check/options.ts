/**
 * Per-category correction rules (spec 8). The spec wins over the reference agent: logging's
 * `status` defaults to `unknown`, and `.` in keys becomes `_` for every category but metric.
 */
import type { Category } from '../../shared/category.js'

export interface CheckOptions {
  dotToUnderscore: boolean
  dropStrings: boolean
  disabledKeys: readonly string[]
  required: readonly (readonly [string, string])[]
}

export const LIMITS = {
  maxTags: 256,
  maxFields: 1024,
  maxKeyBytes: 256,
  maxTagValueBytes: 1024,
  maxStringBytes: 32 * 1024 * 1024,
  maxMeasurementBytes: 1024,
} as const

const PLAIN: CheckOptions = {
  dotToUnderscore: true,
  dropStrings: false,
  disabledKeys: [],
  required: [],
}

const BY_CATEGORY: Partial<Record<Category, CheckOptions>> = {
  metric: { dotToUnderscore: false, dropStrings: true, disabledKeys: [], required: [] },
  logging: { ...PLAIN, disabledKeys: ['source', 'date'], required: [['status', 'unknown']] },
  object: { ...PLAIN, disabledKeys: ['class', 'date'], required: [['name', 'default']] },
  custom_object: { ...PLAIN, required: [['name', 'default']] },
}

export function optionsFor(category: Category): CheckOptions {
  return BY_CATEGORY[category] ?? PLAIN
}
