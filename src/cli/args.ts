/**
 * Reads the command line with node:util parseArgs: the longest run of leading words that names
 * a command selects it, then its own options are parsed strictly. Mistakes are `usage` errors.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { FerryError } from '../errors.js'
import { GLOBAL_OPTIONS, type CommandSpec, type OptionSpec } from './spec.js'

export type Parsed =
  | { kind: 'help'; topic: string }
  | { kind: 'version' }
  | {
      kind: 'command'
      command: CommandSpec
      positionals: string[]
      values: Record<string, string | boolean | undefined>
    }

type Options = NonNullable<ParseArgsConfig['options']>

function toParseOptions(specs: Record<string, OptionSpec>): Options {
  const out: Options = {}
  for (const [name, o] of Object.entries(specs))
    out[name] = o.short ? { type: o.type, short: o.short } : { type: o.type }
  return out
}

/** The command named by the first words of `words`, preferring the longest name. */
export function findCommand(commands: CommandSpec[], words: string[]): CommandSpec | undefined {
  for (let n = Math.min(words.length, 3); n > 0; n--) {
    const name = words.slice(0, n).join(' ')
    const found = commands.find((c) => c.name === name)
    if (found) return found
  }
  return undefined
}

/** Subcommands of a group such as `buffer` (`inspect`, `verify`). */
export function subcommands(commands: CommandSpec[], group: string): string[] {
  return commands
    .filter((c) => !c.hidden && c.name.startsWith(`${group} `))
    .map((c) => c.name.slice(group.length + 1))
}

/** node:util's messages are long and mention internals; the user gets one short line. */
function usageError(e: unknown, command: string): FerryError {
  const code = (e as { code?: string }).code
  const token = /'(-[^' ]*)/.exec((e as Error).message)?.[1] ?? ''
  const see = `(see ferry ${command} --help)`
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return new FerryError('usage', `unknown option ${token} ${see}`)
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return new FerryError('usage', `option ${token} needs a value ${see}`)
  return new FerryError('usage', `${(e as Error).message.split('\n')[0]} ${see}`)
}

/** Names the longest group the words start with (`workspace key`) and what may follow it. */
function unknownCommand(commands: CommandSpec[], words: string[]): FerryError {
  let n = words.length
  while (n > 0 && !subcommands(commands, words.slice(0, n).join(' ')).length) n--
  if (!n) return new FerryError('usage', `unknown command "${words[0]}" (see ferry --help)`)
  const group = words.slice(0, n).join(' ')
  const subs = [...new Set(subcommands(commands, group).map((s) => s.split(' ')[0]))]
  const what = words[n] === undefined ? 'expected' : `unknown subcommand "${words[n]}"; expected`
  return new FerryError('usage', `${group}: ${what} ${subs.join(', ')} (see ferry ${group} --help)`)
}

/** `workspace key drop`: a command with subcommands given a word none of them is. */
function strayWord(commands: CommandSpec[], command: CommandSpec, args: string[]): boolean {
  const [, max] = command.positionals ?? [0, 0]
  return args.length > max && subcommands(commands, command.name).length > 0
}

function checkCount(command: CommandSpec, args: string[]): void {
  const [min, max] = command.positionals ?? [0, 0]
  const see = `(see ferry ${command.name} --help)`
  if (args.length > max) throw new FerryError('usage', `unexpected argument "${args[max]}" ${see}`)
  if (args.length < min) throw new FerryError('usage', `missing arguments ${see}`)
}

export function parseCommandLine(argv: string[], commands: CommandSpec[]): Parsed {
  const all: Record<string, OptionSpec> = { ...GLOBAL_OPTIONS }
  for (const c of commands) Object.assign(all, c.options)
  // A loose first pass only finds the command words; the strict pass below judges the rest.
  const loose = parseArgs({ args: argv, options: toParseOptions(all), strict: false })
  const words = loose.positionals
  const command = words.length ? findCommand(commands, words) : findCommand(commands, ['run'])
  if (loose.values.help)
    return { kind: 'help', topic: words.length ? (command?.name ?? words[0]) : '' }
  if (loose.values.version) return { kind: 'version' }
  if (!command) throw unknownCommand(commands, words)
  const options = toParseOptions({ ...GLOBAL_OPTIONS, ...command.options })
  let strict
  try {
    strict = parseArgs({ args: argv, options, strict: true, allowPositionals: true })
  } catch (e) {
    throw usageError(e, command.name)
  }
  const args = words.length ? strict.positionals.slice(command.name.split(' ').length) : []
  if (strayWord(commands, command, args)) throw unknownCommand(commands, words)
  checkCount(command, args)
  // No option is declared `multiple`, so no value is an array.
  const values = { ...strict.values } as Record<string, string | boolean | undefined>
  return { kind: 'command', command, positionals: args, values }
}
