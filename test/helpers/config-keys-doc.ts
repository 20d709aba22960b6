/**
 * Renders docs/config-keys.md from the config schema and the shipped conf.d/ferry.conf: every
 * key of the schema in schema order, its default as the shipped file writes it, its ENV_*
 * override, whether SIGHUP applies it, and the shipped file's comment as its meaning. The page
 * is never edited by hand; test/unit/docs/config-keys.test.ts fails when it differs, and
 * `npm run docs:config` writes it again.
 */
import { SCHEMA, type KeySpec } from '../../src/config/schema.js'

interface Documented {
  value: string
  comment: string
}

/**
 * `[section]` -> key -> the `# key = value` line and the `##` comment above it; keys written one
 * under another with no comment between share the comment above the first.
 */
export function shippedKeys(conf: string): Map<string, Map<string, Documented>> {
  const out = new Map<string, Map<string, Documented>>()
  let section = ''
  let comment: string[] = []
  let shared = ''
  for (const line of conf.split('\n')) {
    const head = /^\[([^\]]+)\]\s*$/.exec(line)
    const key = /^#? ?([\w*]+) = (.*)$/.exec(line)
    if (head) {
      section = head[1]
      // A section of free-form keys is documented above its header: kept as its `*` key.
      out.set(section, new Map([['*', { value: '{}', comment: comment.join(' ') }]]))
      ;[comment, shared] = [[], '']
    } else if (line.startsWith('## ')) comment.push(line.slice(3))
    else if (key && section) {
      if (comment.length) shared = comment.join(' ')
      out.get(section)!.set(key[1], { value: key[2], comment: shared })
      comment = []
    } else if (!line.trim()) [comment, shared] = [[], '']
  }
  return out
}

const cell = (s: string) => s.replaceAll('|', '\\|')
/** The comment without its trailing `(ENV_...)` note, which has a column of its own. */
const meaning = (c: string) => c.replace(/\s*\(ENV_[^)]*\)\s*$/, '').trim()

function row(key: string, spec: KeySpec, doc: Documented | undefined): string {
  const value = doc?.value ?? JSON.stringify(spec.default)
  const values = spec.values ? ` One of ${spec.values.map((v) => `\`${v}\``).join(', ')}.` : ''
  return [
    key === '*' ? 'any name' : `\`${key}\``,
    `\`${cell(value)}\``,
    spec.env ? `\`${spec.env}\`` : '',
    spec.live ? 'yes' : '',
    cell(meaning(doc?.comment ?? '') + values),
  ].join(' | ')
}

export function renderConfigKeys(conf: string): string {
  const shipped = shippedKeys(conf)
  const lines = [
    '# Configuration keys',
    '',
    'Every key of `conf.d/ferry.conf`, generated from the config schema and the shipped file',
    '(`npm run docs:config`; a test fails when this page is out of date). "SIGHUP" marks the keys',
    'a reload applies without a restart. How the file is read, `ENV_*` overrides and container',
    'mode: [configuration.md](configuration.md).',
  ]
  for (const [section, keys] of Object.entries(SCHEMA)) {
    lines.push('', `## [${section}]`, '', '| key | default | environment | SIGHUP | meaning |')
    lines.push('| --- | --- | --- | --- | --- |')
    for (const [key, spec] of Object.entries(keys as Record<string, KeySpec>))
      lines.push(`| ${row(key, spec, shipped.get(section)?.get(key))} |`)
  }
  return lines.join('\n') + '\n'
}
