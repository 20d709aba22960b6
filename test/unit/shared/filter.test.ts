/**
 * IO filter conditions: the reference's syntax parsed exactly, evaluation on points (tags,
 * fields, virtual keys, missing keys), and errors with their offsets.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compileFilters } from '../../../src/shared/filter/evaluate.js'
import { parseFilter } from '../../../src/shared/filter/parser.js'
import type { Category } from '../../../src/shared/category.js'
import { Kind, newPoint, type Point } from '../../../src/shared/point.js'

function point(
  name: string,
  tags: Record<string, string>,
  fields: Record<string, unknown> = {},
): Point {
  const p = newPoint(name)
  for (const [key, value] of Object.entries(tags)) p.tags.push({ key, value })
  for (const [key, value] of Object.entries(fields)) {
    const kind =
      typeof value === 'string'
        ? Kind.STRING
        : typeof value === 'boolean'
          ? Kind.BOOL
          : Number.isInteger(value)
            ? Kind.INT
            : Kind.FLOAT
    p.fields.push({ key, kind, value: value as number })
  }
  return p
}

const drops = (filters: string[], category: Category, p: Point) =>
  compileFilters(filters, category)(p)

test('the reference example: source and status in a list, on logging', () => {
  const f = ["{ source = 'nginx' and status in ['debug'] }"]
  assert.equal(drops(f, 'logging', point('nginx', { status: 'debug' })), true)
  assert.equal(drops(f, 'logging', point('nginx', { status: 'info' })), false)
  assert.equal(drops(f, 'logging', point('app', { status: 'debug' })), false)
  // `source` is the measurement only for logging-like categories; metrics name `measurement`.
  assert.equal(drops(f, 'metric', point('nginx', { status: 'debug' })), false)
  assert.equal(drops(["{ measurement = 'cpu' }"], 'metric', point('cpu', {})), true)
  assert.equal(drops(["{ class = 'HOST' }"], 'object', point('HOST', {})), true)
  assert.equal(drops(["{ category = 'rum' }"], 'rum', point('view', {})), true)
})

test('commas join with and, several groups or strings with or, parentheses and ||/&&', () => {
  const f = ["{ host = 'a', cpu = 'total' }; { host = 'b' }", "{ (x = 1 || x = 2) && y != 'z' }"]
  assert.equal(drops(f, 'metric', point('m', { host: 'a', cpu: 'total' })), true)
  assert.equal(drops(f, 'metric', point('m', { host: 'a', cpu: 'cpu0' })), false)
  assert.equal(drops(f, 'metric', point('m', { host: 'b' })), true)
  assert.equal(drops(f, 'metric', point('m', {}, { x: 2 })), true)
  assert.equal(drops(f, 'metric', point('m', { y: 'z' }, { x: 2 })), false)
})

test('numbers, strings and booleans compare by kind; a missing key equals only nil', () => {
  const p = point('m', { region: 'eu' }, { code: 503, ratio: 0.5, ok: false, msg: 'x' })
  assert.equal(drops(['{ code >= 500 }'], 'metric', p), true)
  assert.equal(drops(['{ code < 500 }'], 'metric', p), false)
  assert.equal(drops(['{ ratio > 0.25 and ratio <= 0.5 }'], 'metric', p), true)
  assert.equal(drops(['{ code = 503.0 }'], 'metric', p), true)
  assert.equal(drops(['{ ok = false }'], 'metric', p), true)
  assert.equal(drops(["{ region > 'ab' }"], 'metric', p), true)
  assert.equal(drops(["{ code = '503' }"], 'metric', p), false)
  assert.equal(drops(['{ absent = nil }'], 'metric', p), true)
  assert.equal(drops(["{ absent != 'x' }"], 'metric', p), true)
  assert.equal(drops(["{ absent = 'x' }"], 'metric', p), false)
  assert.equal(drops(['{ absent > 1 }'], 'metric', p), false)
  assert.equal(drops(["{ region notin ['us', 'ap'] }"], 'metric', p), true)
  assert.equal(drops(["{ region not_in ['eu'] }"], 'metric', p), false)
  assert.equal(drops(['{ absent in [nil] }'], 'metric', p), true)
})

test('match and notmatch take regexes (re() or plain strings); = re() matches too', () => {
  const p = point('nginx', { path: '/api/v1/health' })
  assert.equal(drops(["{ path match [re('^/api/.*/health$')] }"], 'logging', p), true)
  assert.equal(drops(["{ path match ['^/static'] }"], 'logging', p), false)
  assert.equal(drops(["{ path notmatch ['^/static'] }"], 'logging', p), true)
  assert.equal(drops(["{ path = re('health') }"], 'logging', p), true)
})

test('keywords are case-insensitive; backquotes name odd keys; comments are skipped', () => {
  const p = point('m', { 'a-b': '1', Host: 'x' })
  assert.equal(drops(["{ `a-b` = '1' AND Host IN ['x'] } # the end"], 'metric', p), true)
})

test('syntax errors name what was expected and where', () => {
  const cases: [string, string][] = [
    ['{ source = }', 'expected a value, found "}" at offset 11'],
    ["{ source 'x' }", 'expected an operator, found "x" at offset 9'],
    ["source = 'x'", 'expected "{", found "source" at offset 0'],
    ["{ a = 'x' ", 'expected "}", found the end at offset 10'],
    ["{ a = 'x }", 'unterminated string at offset 6'],
    [
      '{ a match [re("(")] }',
      'bad regex: Invalid regular expression: /(/: Unterminated group at offset 14',
    ],
    ['', 'no condition at offset 0'],
    ['{ a ~ 1 }', 'unexpected "~" at offset 4'],
  ]
  for (const [src, message] of cases) assert.throws(() => parseFilter(src), { message }, src)
})
