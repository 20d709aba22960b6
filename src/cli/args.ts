/** Command-line arguments: commands, `--flag value` options and boolean switches. */
import { FerryError } from '../errors.js'

export interface Args {
  command: string[]
  config: string
  flags: Record<string, string | true>
}

const VALUE_FLAGS = [
  '--config',
  '--path',
  '--from',
  '--to',
  '--input',
  '--category',
  '--data-type',
  '--timezone',
  '--url',
  '--interval',
  '--root',
]
const SWITCHES = ['--json', '--once']

export function parseArgs(argv: string[], defaultConfig: string, usage: string): Args {
  const command: string[] = []
  const flags: Record<string, string | true> = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (VALUE_FLAGS.includes(a) && argv[i + 1] !== undefined) flags[a.slice(2)] = argv[++i]
    else if (SWITCHES.includes(a)) flags[a.slice(2)] = true
    else if (!a.startsWith('-')) command.push(a)
    else throw new FerryError('badRequest', `unknown option ${a}\n${usage}`)
  }
  const config = (flags.config as string | undefined) ?? process.env.FERRY_CONFIG ?? defaultConfig
  return { command: command.length ? command : ['run'], config, flags }
}
