/** Linear-time expressions: RE2 syntax, exact answers, unsupported constructs with offsets. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compileGrok } from '../../../src/pipeline/grok/grok.js'
import { BUILTIN_PATTERNS } from '../../../src/pipeline/grok/patterns.js'
import { compileLinear, PatternError } from '../../../src/pipeline/regex/linear.js'
import { compilePpl } from '../../../src/pipeline/ppl/compile.js'
import { PlSyntaxError } from '../../../src/pipeline/ppl/lexer.js'

const lookup = (n: string) => BUILTIN_PATTERNS[n]

function compileError(source: string): [string, number] {
  try {
    compileLinear(source)
  } catch (e) {
    assert.ok(e instanceof PatternError, String(e))
    return [e.reason, e.offset]
  }
  assert.fail(`${source} compiled`)
}

test('regex: RE2 syntax the reference uses, exact matches', () => {
  assert.deepEqual(compileLinear('(?P<k>\\w+)=(\\d+)?').exec('x a=1'), ['a=1', 'a', '1'])
  assert.deepEqual(compileLinear('(?P<k>\\w+)=(\\d+)?').exec('a='), ['a=', 'a', undefined])
  assert.deepEqual(compileLinear('(?s)a.b').exec('a\nb'), ['a\nb'])
  assert.deepEqual(compileLinear('[[:alpha:]]+\\z').exec('12ab'), ['ab'])
  assert.equal(compileLinear('^b', { multiline: true }).test('a\nb'), true)
  assert.equal(compileLinear('A', { ignoreCase: true }).test('a'), true)
  assert.equal(compileLinear('x').exec('abc'), null)
  assert.equal(compileLinear('(\\d)').replaceAll('a1b2', '<$1$&$$>'), 'a<11$>b<22$>')
  assert.equal(compileLinear('(?P<d>\\d)').replaceAll('a1', '[$<d>]'), 'a[1]')
  assert.deepEqual(compileLinear('[,;]').split('a,b;;c,'), ['a', 'b', '', 'c', ''])
})

test('regex: what RE2 cannot express fails to compile with its offset', () => {
  const reason = (kind: string, text: string) =>
    `${kind} \`${text}\` is not supported: patterns use RE2 syntax, which matches in linear time`
  assert.deepEqual(compileError('(a)\\1'), [reason('backreference', '\\1'), 3])
  assert.deepEqual(compileError('x(?=y)'), [reason('lookahead', '(?='), 1])
  assert.deepEqual(compileError('[(?=]x(?!y)'), [reason('lookahead', '(?!'), 6])
  assert.deepEqual(compileError('ab(?<=c)'), [reason('lookbehind', '(?<='), 2])
  assert.deepEqual(compileError('(?<!c)'), [reason('lookbehind', '(?<!'), 0])
  assert.deepEqual(compileError('(?<n>a)\\k<n>'), [reason('backreference', '\\k<'), 7])
  assert.deepEqual(compileError('(?>a)'), [reason('atomic group', '(?>'), 0])
  assert.deepEqual(compileError('a++'), [
    'error parsing regexp: invalid nested repetition operator: `++`',
    1,
  ])
  assert.deepEqual(compileError('ab[c'), ['error parsing regexp: missing closing ]: `[c`', 2])
  assert.throws(() => compileGrok('%{INT:n}(?=x)', lookup), {
    message: `grok pattern: ${reason('lookahead', '(?=')} (at offset 8)`,
  })
})

test('regex: catastrophic patterns and crafted lines take linear time', () => {
  const re = compileLinear('^(a+)+$')
  const started = performance.now()
  for (const n of [29, 30, 1000, 100_000]) assert.equal(re.exec('a'.repeat(n) + 'b'), null)
  assert.equal(re.exec('a'.repeat(30))![1], 'a'.repeat(30))
  const nginxError = compileGrok(
    '%{GREEDYDATA:msg}, client: %{NOTSPACE:ip}, server: %{NOTSPACE:s}, request: "%{DATA:m} %{GREEDYDATA:u} HTTP/%{NUMBER:v}", host: "%{NOTSPACE:h}"',
    lookup,
  )
  const crafted =
    '2021/01/01 00:00:00 [error] ' + ', client: a, server: b, request: "a HTTP/1'.repeat(240)
  assert.equal(nginxError.re.exec(crafted), null)
  assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`)
})

test('Platypus: a literal pattern RE2 cannot express is a compile error at its column', () => {
  const at = (src: string) => {
    try {
      compilePpl(src)
      return null
    } catch (e) {
      assert.ok(e instanceof PlSyntaxError)
      return [e.message, e.ln, e.col, e.pos]
    }
  }
  const reason = 'is not supported: patterns use RE2 syntax, which matches in linear time'
  assert.deepEqual(at('x = 1\nreplace(a, "(a)\\\\1", "b")'), [
    `replace: backreference \`\\1\` ${reason} (at offset 3)`,
    2,
    16,
    21,
  ])
  assert.deepEqual(at("grok(_, '%{INT:a}(?=x)')"), [
    `grok: lookahead \`(?=\` ${reason} (at offset 8)`,
    1,
    18,
    17,
  ])
  assert.deepEqual(at("match('''ab\n(?<!c)''', _)"), [
    `match: lookbehind \`(?<!\` ${reason} (at offset 3)`,
    2,
    1,
    12,
  ])
  assert.deepEqual(at('kv_split(_, field_split_pattern="a**")'), [
    'kv_split: error parsing regexp: invalid nested repetition operator: `**` (at offset 1)',
    1,
    35,
    34,
  ])
  assert.equal(at('grok(_, "%{INT:a} %{DATA:b}")\nadd_pattern("p", "(?P<x>\\\\d+)")'), null)
})
