/**
 * The ten data categories of the write API (spec 2.1), with their short names.
 * The path segment of `/v1/write/:category` must match a full name exactly.
 */
export const CATEGORIES = {
  custom_object: 'CO',
  keyevent: 'E',
  logging: 'L',
  metric: 'M',
  network: 'N',
  object: 'O',
  profiling: 'P',
  rum: 'R',
  security: 'S',
  tracing: 'T',
} as const

export type Category = keyof typeof CATEGORIES

export const CATEGORY_NAMES = Object.keys(CATEGORIES) as Category[]

export function isCategory(s: string): s is Category {
  return Object.prototype.hasOwnProperty.call(CATEGORIES, s)
}
