/** The command line parser on its own: which command the words name, and each usage error. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseCommandLine } from '../../../src/cli/args.js'
import { COMMANDS } from '../../../src/cli/commands/index.js'
import { helpText } from '../../../src/cli/help.js'
import { FerryError } from '../../../src/errors.js'

function parse(line: string) {
  const p = parseCommandLine(line ? line.split(' ') : [], COMMANDS)
  return p.kind === 'command' ? [p.command.name, p.positionals, p.values] : [p.kind, p]
}

function usage(line: string): string {
  try {
    parseCommandLine(line.split(' '), COMMANDS)
  } catch (e) {
    assert.ok(e instanceof FerryError && e.code === 'usage', String(e))
    return e.message
  }
  throw new Error(`${line}: no error`)
}

test('the longest run of words that names a command selects it', () => {
  assert.deepEqual(parse(''), ['run', [], {}])
  assert.deepEqual(parse('--config x.conf'), ['run', [], { config: 'x.conf' }])
  assert.deepEqual(parse('workspace'), ['workspace', [], {}])
  assert.deepEqual(parse('workspace key create prod ci --json'), [
    'workspace key create',
    ['prod', 'ci'],
    { json: true },
  ])
  assert.deepEqual(parse('--config c buffer verify --repair --path p'), [
    'buffer verify',
    [],
    { config: 'c', repair: true, path: 'p' },
  ])
})

test('help and version, anywhere on the line', () => {
  assert.deepEqual(parse('--help'), ['help', { kind: 'help', topic: '' }])
  assert.deepEqual(parse('buffer -h'), ['help', { kind: 'help', topic: 'buffer' }])
  assert.deepEqual(parse('buffer inspect --help'), [
    'help',
    { kind: 'help', topic: 'buffer inspect' },
  ])
  assert.deepEqual(parse('run --version'), ['version', { kind: 'version' }])
})

test('usage errors name the mistake and where to read more', () => {
  assert.equal(usage('runn'), 'unknown command "runn" (see ferry --help)')
  assert.equal(usage('buffer'), 'buffer: expected inspect, verify (see ferry buffer --help)')
  assert.equal(
    usage('workspace crate x'),
    'workspace: unknown subcommand "crate"; expected create, list, key, retention, verify, migrate, repair (see ferry workspace --help)',
  )
  assert.equal(
    usage('workspace key drop x'),
    'workspace key: unknown subcommand "drop"; expected create, list, revoke (see ferry workspace key --help)',
  )
  assert.equal(usage('buffer inspect -x'), 'unknown option -x (see ferry buffer inspect --help)')
  assert.equal(usage('run --config'), 'option --config needs a value (see ferry run --help)')
  assert.equal(usage('health extra'), 'unexpected argument "extra" (see ferry health --help)')
  assert.equal(usage('completion'), 'missing arguments (see ferry completion --help)')
})

test('help lists every visible command and hides the internal one', () => {
  const top = helpText('', COMMANDS)
  for (const c of COMMANDS) assert.equal(top.includes(`  ${c.usage}`), !c.hidden, c.name)
  assert.equal(
    helpText('health', COMMANDS),
    [
      'usage: ferry health [--url URL] [--timeout 3s]',
      '',
      'exit 0 if the agent answers /v1/ping healthy, else 1 (for probes)',
      '',
      'options:',
      '  --url URL             the agent, e.g. http://127.0.0.1:9529',
      '  --timeout DURATION    how long to wait (default 3s)',
      '  --config PATH         the main config (default: FERRY_CONFIG, else conf.d/ferry.conf)',
      '  -h, --help            show help',
      '',
      'exit status: 0 ok, 1 failure, 2 usage error.',
    ].join('\n'),
  )
})
