/**
 * A DuckDB storage engine for unit tests, with the small limits they all share (256 MiB, one
 * thread): the same options wherever a test opens one, only the directory and the categories
 * stored in the series layout differ.
 */
import type { Category } from '../../src/shared/category.js'
import { DuckDbEngine } from '../../src/workspace/store/duckdb-engine.js'

export function openTestEngine(
  dir: string,
  seriesCategories: readonly Category[] = [],
): Promise<DuckDbEngine> {
  return DuckDbEngine.open({
    dir,
    memoryLimit: 256 * 1024 * 1024,
    threads: 1,
    maxPendingPoints: 100_000,
    commitMaxPoints: 10_000,
    dedupeWindowMs: 3_600_000,
    seriesCategories,
  })
}
