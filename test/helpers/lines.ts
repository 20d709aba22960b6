/**
 * Checks that an edited text keeps every line of the original, in order and byte for byte,
 * and returns the lines it added (blank ones dropped).
 */
import assert from 'node:assert/strict'

export function addedLines(original: string, edited: string): string[] {
  const before = original.split('\n')
  const after = edited.split('\n')
  const added: string[] = []
  let i = 0
  for (const line of after) {
    if (i < before.length && line === before[i]) i++
    else if (line.trim()) added.push(line)
  }
  assert.equal(i, before.length, `original line ${i + 1} was changed: ${before[i]}`)
  return added
}
