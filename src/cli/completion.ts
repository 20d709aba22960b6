/**
 * `ferry completion bash|zsh`: a completion script built from the command specs. zsh loads the
 * bash function through bashcompinit, so both shells complete the same words. The script
 * completes the command under the name it was run as (`ferry` from npm's link or a global
 * install, another name where a package installs it so), never `node` or a `.js` path.
 */
import path from 'node:path'
import type { CommandSpec } from './spec.js'
import { GLOBAL_OPTIONS } from './spec.js'

/** For each command prefix ('' for the first word), the words that may follow it. */
function wordTable(commands: CommandSpec[]): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>()
  const add = (prefix: string, word: string) =>
    table.set(prefix, (table.get(prefix) ?? new Set()).add(word))
  for (const c of commands.filter((c) => !c.hidden)) {
    const words = c.name.split(' ')
    words.forEach((w, i) => add(words.slice(0, i).join(' '), w))
    for (const [name, o] of Object.entries({ ...c.options, ...GLOBAL_OPTIONS })) {
      add(c.name, `--${name}`)
      if (o.short) add(c.name, `-${o.short}`)
    }
  }
  return table
}

function caseArms(commands: CommandSpec[]): string {
  return [...wordTable(commands)]
    .map(([prefix, words]) => `    "${prefix}") words="${[...words].join(' ')}" ;;`)
    .join('\n')
}

/** The installed command's name: the script's file name, or `ferry` when run as `main.js`. */
export function commandName(script = process.argv[1] ?? ''): string {
  const base = path.basename(script)
  return /^[\w.-]+$/.test(base) && !base.endsWith('.js') ? base : 'ferry'
}

export function bashCompletion(commands: CommandSpec[], name = commandName()): string {
  return `# ${name} completion (bash): eval "$(${name} completion bash)"
_ferry() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prefix="" w words
  # The command so far: the leading words that are not options.
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$w" in -*) break ;; esac
    prefix="\${prefix:+$prefix }$w"
  done
  case "$prefix" in
${caseArms(commands)}
    *) words="" ;;
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
  [ \${#COMPREPLY[@]} -eq 0 ] && COMPREPLY=( $(compgen -f -- "$cur") )
  return 0
}
complete -F _ferry ${name}
`
}

export function zshCompletion(commands: CommandSpec[], name = commandName()): string {
  return `# ${name} completion (zsh): eval "$(${name} completion zsh)"
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(commands, name).split('\n').slice(1).join('\n')}`
}
