/**
 * How points map onto tables: one DuckDB schema per workspace (`w_<hex>`), one table per
 * category and measurement (`M::cpu`, `O::HOST`), a BIGINT `time` column in nanoseconds and
 * one column per tag or field key. Every identifier is quoted, so any key is a valid column.
 */
import { CATEGORIES, type Category } from '../../shared/category.js'

/** DQL namespaces, short and long, to categories. */
export const NAMESPACES: Record<string, Category> = {
  M: 'metric',
  metric: 'metric',
  L: 'logging',
  logging: 'logging',
  O: 'object',
  object: 'object',
  CO: 'custom_object',
  custom_object: 'custom_object',
  E: 'keyevent',
  event: 'keyevent',
  keyevent: 'keyevent',
  T: 'tracing',
  tracing: 'tracing',
  R: 'rum',
  rum: 'rum',
  S: 'security',
  security: 'security',
  N: 'network',
  network: 'network',
  P: 'profiling',
  profiling: 'profiling',
}

export const TIME_COLUMN = 'time'

export function tableName(category: Category, measurement: string): string {
  return `${CATEGORIES[category]}::${measurement}`
}

export function schemaName(workspaceId: string): string {
  return `w_${workspaceId.replace(/^wksp_/, '')}`
}

export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

export function qualified(workspaceId: string, table: string): string {
  return `${ident(schemaName(workspaceId))}.${ident(table)}`
}

/** A tag or field named like the time column is stored beside it. */
export function columnFor(key: string): string {
  return key === TIME_COLUMN ? `${TIME_COLUMN}_` : key
}
