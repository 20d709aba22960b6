import assert from 'node:assert/strict'
import { test } from 'node:test'
import { LineReader, removeAnsi, type ReaderOptions } from '../../../src/inputs/logging/reader.js'

const opts = (o: Partial<ReaderOptions> = {}): ReaderOptions => ({
  encoding: 'utf-8',
  maxLength: 1024,
  multiline: null,
  removeAnsi: false,
  ...o,
})

test('lines split across chunks come out whole, with the offset past each newline', () => {
  const r = new LineReader(opts(), 100)
  assert.deepEqual(r.push(Buffer.from('alpha\nbe')), [{ text: 'alpha', end: 106 }])
  assert.deepEqual(r.push(Buffer.from('ta\r\n\ngamma')), [{ text: 'beta', end: 112 }])
  // A line without its newline waits while the file may still grow...
  assert.deepEqual(r.flush(false), [])
  // ...and is sent once the file is finished.
  assert.deepEqual(r.flush(true), [{ text: 'gamma', end: 118 }])
})

test('multiline: lines not matching the start pattern join the previous entry', () => {
  const r = new LineReader(opts({ multiline: /^\d{4}-/ }), 0)
  const text = '2024-01-01 boom\n  at a()\n  at b()\n2024-01-02 ok\n'
  assert.deepEqual(r.push(Buffer.from(text)), [
    { text: '2024-01-01 boom\n  at a()\n  at b()', end: 34 },
  ])
  assert.deepEqual(r.flush(false), [{ text: '2024-01-02 ok', end: 48 }])
})

test('ANSI colour and cursor codes are removed when asked', () => {
  assert.equal(
    removeAnsi('\x1b[31mred\x1b[0m \x1b[1;32mgreen\x1b[K\x1b]0;title\x07!'),
    'red green!',
  )
  const r = new LineReader(opts({ removeAnsi: true }), 0)
  assert.deepEqual(r.push(Buffer.from('\x1b[33mWARN\x1b[0m disk\n')), [
    { text: 'WARN disk', end: 19 },
  ])
})

test('a line over the limit is cut, counted, and the next line is intact', () => {
  const r = new LineReader(opts({ maxLength: 8 }), 0)
  const first = r.push(Buffer.from('0123456789abc'))
  assert.deepEqual(first, [])
  assert.deepEqual(r.push(Buffer.from('def\nshort\n')), [
    { text: '01234567', end: 17 },
    { text: 'short', end: 23 },
  ])
  assert.equal(r.takeTruncated(), 1)
  assert.equal(r.takeTruncated(), 0)
})

test('gbk text is decoded', () => {
  const r = new LineReader(opts({ encoding: 'gbk' }), 0)
  const gbk = Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0x0a])
  assert.deepEqual(r.push(gbk), [{ text: '你好', end: 5 }])
})
