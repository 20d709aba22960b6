/** What a command of the CLI declares: its name, usage, options and how it runs. */

export interface OptionSpec {
  type: 'string' | 'boolean'
  short?: string
  /** The value's placeholder in help, e.g. `FILE`. */
  value?: string
  help: string
}

export interface Context {
  /** Arguments after the command's name. */
  positionals: string[]
  values: Record<string, string | boolean | undefined>
  /** `--config`, else FERRY_CONFIG, else null (the package's conf.d/ferry.conf applies). */
  configFlag: string | null
  defaultConfig: string
  packageRoot: string
  /** The script that runs the CLI (child processes re-run it). */
  mainScript: string
  /** Ends the process; only src/main.ts may exit, so long-running commands are handed this. */
  exit: (code: number) => void
}

/** A command's exit status (0 when it returns nothing); failures throw FerryErrors. */
export type Outcome = number | void

export interface CommandSpec {
  /** Words that select it, e.g. `buffer inspect`. */
  name: string
  /** The usage line after `ferry`, e.g. `pipeline test SCRIPT --input FILE [options]`. */
  usage: string
  summary: string
  /** How many arguments follow the name: [min, max]. */
  positionals?: [number, number]
  options?: Record<string, OptionSpec>
  /** Internal commands (the start-up probe's salvage) are left out of help and completion. */
  hidden?: boolean
  run(ctx: Context): Promise<Outcome | unknown> | Outcome
}

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  config: {
    type: 'string',
    value: 'PATH',
    help: 'the main config (default: FERRY_CONFIG, else conf.d/ferry.conf)',
  },
  help: { type: 'boolean', short: 'h', help: 'show help' },
  version: { type: 'boolean', help: 'print the version' },
}
