/**
 * The grok road's match without a copy (LinearRegex.groups): on V8 the groups are unnamed for
 * it, so the numbers, and every group's text, must be exactly what exec and re2js give.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compileGrok } from '../../../src/pipeline/grok/grok.js'
import { BUILTIN_PATTERNS } from '../../../src/pipeline/grok/patterns.js'
import { compileLinear } from '../../../src/pipeline/regex/linear.js'
import { toJsSource } from '../../../src/pipeline/regex/v8-linear.js'

const lookup = (n: string) => BUILTIN_PATTERNS[n]

test('regex groups: named groups lose their names only, in code and in classes alike', () => {
  assert.equal(toJsSource('(?P<k>\\w+)=(?<v>\\d+)?', true), '(\\w+)=(\\d+)?')
  assert.equal(toJsSource('[(?<x>)](?<y>a)', true), '[(?<x>)](a)')
  assert.equal(toJsSource('\\(?<x>a', true), '\\(?<x>a')
  assert.equal(toJsSource('(?P<k>a)'), '(?<k>a)')
})

test('regex groups: the same groups as exec and as re2js, on both engines', () => {
  const source = '(?P<k>\\w+)=(?P<v>\\d+)?(?:;(?<rest>.*))?'
  const v8 = compileLinear(source)
  const re2 = compileLinear(source, { engine: 're2js' })
  assert.equal(v8.engine, 'v8')
  for (const s of ['x a=1;tail', 'a=', 'none', 'k=7;']) {
    const want = re2.exec(s)
    assert.deepEqual(v8.exec(s), want, s)
    const got = v8.groups(s)
    assert.deepEqual(got === null ? null : [...got], want, s)
    assert.deepEqual(re2.groups(s), want, s)
  }
})

test('regex groups: an nginx grok captures by the same numbers on V8 and on re2js', () => {
  const g = compileGrok(
    '%{NOTSPACE:ip} %{NOTSPACE:ident} %{NOTSPACE:auth} \\[%{HTTPDATE:time}\\] "%{DATA:method} %{GREEDYDATA:url} HTTP/%{NUMBER:v}" %{INT:code} %{INT:bytes}',
    lookup,
  )
  const line = '10.0.0.1 - - [24/Mar/2021:13:00:19 +0800] "GET /a?b=1 HTTP/1.1" 200 512'
  const m = g.re.groups(line)!
  const want = compileLinear(g.re.source, { engine: 're2js' }).exec(line)!
  assert.deepEqual(
    g.captures.map((c) => [c.name, m[c.index]]),
    g.captures.map((c) => [c.name, want[c.index]]),
  )
  assert.equal(m[g.captures.find((c) => c.name === 'url')!.index], '/a?b=1')
})
