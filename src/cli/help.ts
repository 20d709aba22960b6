/** Help texts, rendered from the command specs so they never drift from what is parsed. */
import { FerryError } from '../errors.js'
import { findCommand, subcommands } from './args.js'
import { GLOBAL_OPTIONS, type CommandSpec, type OptionSpec } from './spec.js'

const EXIT = 'exit status: 0 ok, 1 failure, 2 usage error'

const FOOTER = `The config path is --config, else FERRY_CONFIG, else conf.d/ferry.conf of the package; a
path given that does not exist is an error. With FERRY_CONTAINER=1 no file is read: defaults
and ENV_* only (container mode). ${EXIT}.`

function line(left: string, right: string, width: number): string {
  return left.length < width ? `  ${left.padEnd(width)}${right}` : `  ${left}\n        ${right}`
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  return Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.value ? ` ${o.value}` : ''}`
    return line(flag, o.help, 22)
  })
}

export function topHelp(commands: CommandSpec[]): string {
  const rows = commands.filter((c) => !c.hidden).map((c) => line(c.usage, c.summary, 34))
  return [
    'usage: ferry <command> [options]',
    '',
    'Ferry: a host telemetry agent compatible with the DataKit HTTP API.',
    '',
    'commands:',
    ...rows,
    '',
    'options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    FOOTER,
    'Run `ferry <command> --help` for a command.',
  ].join('\n')
}

function commandHelp(c: CommandSpec, commands: CommandSpec[]): string {
  const subs = commands.filter((s) => !s.hidden && s.name.startsWith(`${c.name} `))
  const out = [`usage: ferry ${c.usage}`, '', c.summary]
  if (subs.length) out.push('', 'commands:', ...subs.map((s) => line(s.usage, s.summary, 34)))
  const { config, help } = GLOBAL_OPTIONS
  out.push('', 'options:', ...optionLines({ ...c.options, config, help }), '', `${EXIT}.`)
  return out.join('\n')
}

function groupHelp(group: string, commands: CommandSpec[]): string {
  const subs = commands.filter((c) => !c.hidden && c.name.startsWith(`${group} `))
  return [
    `usage: ferry ${group} <${subcommands(commands, group).join('|')}> [options]`,
    '',
    'commands:',
    ...subs.map((c) => line(c.usage, c.summary, 34)),
    '',
    `Run \`ferry ${group} <command> --help\` for one of them.`,
    `${EXIT}.`,
  ].join('\n')
}

/** Help for `topic` ('' for the whole CLI, a command, or a group such as `buffer`). */
export function helpText(topic: string, commands: CommandSpec[]): string {
  if (!topic) return topHelp(commands)
  const c = findCommand(commands, topic.split(' '))
  if (c) return commandHelp(c, commands)
  if (subcommands(commands, topic).length) return groupHelp(topic, commands)
  throw new FerryError('usage', `unknown command "${topic}" (see ferry --help)`)
}
