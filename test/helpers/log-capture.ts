/** A log destination for tests: every JSON line written to it, parsed, in order. */
import { Writable } from 'node:stream'

export function captureLog(): { lines: Record<string, unknown>[]; destination: Writable } {
  const lines: Record<string, unknown>[] = []
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l))
      done()
    },
  })
  return { lines, destination }
}
