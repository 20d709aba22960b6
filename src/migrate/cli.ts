/**
 * The `ferry migrate` command's output: one `file:key: reason` line on stdout for each key
 * that was not mapped, then a summary on stderr. Exit status 0 when every key mapped,
 * MIGRATE_INCOMPLETE when some did not (the files are written all the same); unreadable input
 * and existing output are errors thrown before anything is written.
 */
import type { SectionSpec } from '../config/spec.js'
import { planMigration, writeMigration } from './migrate.js'
import { problemLine } from './report.js'

/** Distinct from 1 (failure) and 2 (usage): the output was written, with keys left out. */
export const MIGRATE_INCOMPLETE = 3

export interface MigrateCommand {
  mainFile: string
  inputsDir?: string
  outDir: string
  force: boolean
  env: NodeJS.ProcessEnv
  inputs: ReadonlyMap<string, SectionSpec>
}

export function migrateCommand(c: MigrateCommand): number {
  const plan = planMigration(c)
  const written = writeMigration(plan, c.outDir, c.force)
  for (const p of plan.problems) console.log(problemLine(p))
  const files = `${written.length} file${written.length === 1 ? '' : 's'}`
  const left = plan.problems.length
    ? `${plan.problems.length} key${plan.problems.length === 1 ? '' : 's'} not mapped (listed above)`
    : 'every key mapped'
  const quiet = plan.skipped
    ? `; ${plan.skipped} left out as they ask for nothing Ferry lacks (reference defaults, empty or switched off)`
    : ''
  console.error(`ferry migrate: wrote ${files} to ${c.outDir}; ${left}${quiet}`)
  return plan.problems.length ? MIGRATE_INCOMPLETE : 0
}
