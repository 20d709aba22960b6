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

/**
 * The virtual key a category names its points' measurement by, in the reference agent's
 * filters and sinker: `source` for logging, network, keyevent and rum, `measurement` for
 * metric, `class` for object and custom_object; none for the others.
 */
const NAME_KEYS: Partial<Record<Category, string>> = {
  logging: 'source',
  network: 'source',
  keyevent: 'source',
  rum: 'source',
  metric: 'measurement',
  object: 'class',
  custom_object: 'class',
}

export function nameKey(c: Category): string | undefined {
  return NAME_KEYS[c]
}
