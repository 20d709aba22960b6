/**
 * The keys of one span's point while the trace transcoder maps it, in a table reused from span
 * to span: key, tag or field, and where the value comes from (a range of the body, a constant,
 * a number, the span's message). `set` has the mapping's `setTag`/`setField` semantics: a key
 * set again replaces every earlier tag or field of that key and moves to the end.
 *
 * Invariant: the live entries, tags first then fields, each in the order they were set, are the
 * point's keys in the order the general path encodes them.
 */

import { grow } from './span-table.js'

/** A string of the body's bytes [a, e), ASCII (checked by the mapper). */
export const E_RANGE = 0
/** A JS string (`str`). */
export const E_CONST = 1
/** The body's bytes [a, e) in lower-case hex, `"0"` when empty (span ids). */
export const E_HEX = 2
/** A non-negative integer `num` as decimal text. */
export const E_DIGITS = 3
export const E_INT = 4
export const E_FLOAT = 5
export const E_BOOL = 6
/** The span's `message` text (span-message.ts). */
export const E_MESSAGE = 7

export class Entries {
  n = 0
  tags = 0
  fields = 0
  key: string[] = []
  str: string[] = []
  tag = new Uint8Array(64)
  type = new Uint8Array(64)
  live = new Uint8Array(64)
  a = new Int32Array(64)
  e = new Int32Array(64)
  num = new Float64Array(64)

  reset(): void {
    this.n = this.tags = this.fields = 0
  }

  private grow(): void {
    const size = this.tag.length + 1
    this.tag = grow(this.tag, size)
    this.type = grow(this.type, size)
    this.live = grow(this.live, size)
    this.a = grow(this.a, size)
    this.e = grow(this.e, size)
    this.num = grow(this.num, size)
  }

  has(key: string): boolean {
    for (let j = 0; j < this.n; j++) if (this.live[j] && this.key[j] === key) return true
    return false
  }

  /** Sets a tag (`tag` true) or field; returns its row for the caller to fill the value. */
  set(key: string, tag: boolean, type: number): number {
    for (let j = 0; j < this.n; j++) {
      if (!this.live[j] || this.key[j] !== key) continue
      this.live[j] = 0
      if (this.tag[j]) this.tags--
      else this.fields--
    }
    return this.push(key, tag, type)
  }

  /** Appends a key known to be new (the first keys of every span). */
  push(key: string, tag: boolean, type: number): number {
    if (this.n === this.tag.length) this.grow()
    const j = this.n++
    this.key[j] = key
    this.tag[j] = tag ? 1 : 0
    this.type[j] = type
    this.live[j] = 1
    if (tag) this.tags++
    else this.fields++
    return j
  }

  range(key: string, tag: boolean, a: number, e: number, fresh = false): void {
    const j = fresh ? this.push(key, tag, E_RANGE) : this.set(key, tag, E_RANGE)
    this.a[j] = a
    this.e[j] = e
  }

  hex(key: string, a: number, e: number): void {
    const j = this.push(key, false, E_HEX)
    this.a[j] = a
    this.e[j] = e
  }

  text(key: string, tag: boolean, s: string, fresh = false): void {
    const j = fresh ? this.push(key, tag, E_CONST) : this.set(key, tag, E_CONST)
    this.str[j] = s
  }

  number(key: string, tag: boolean, type: number, v: number, fresh = false): void {
    const j = fresh ? this.push(key, tag, type) : this.set(key, tag, type)
    this.num[j] = v
  }
}
