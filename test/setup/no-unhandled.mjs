/**
 * Loaded into every test process (`--import`, see package.json): an unhandled promise
 * rejection anywhere, during a test or after it ended, fails the test file with the reason,
 * whatever the test runner's own handling of it. Plain JavaScript: worker threads inherit the
 * flag and load it before any TypeScript loader is in place.
 */
/** @type {string[]} */
const seen = []

process.on('unhandledRejection', (reason) => {
  const text = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)
  seen.push(text)
  console.error(`unhandled rejection: ${text}`)
})

process.on('exit', () => {
  if (seen.length === 0) return
  console.error(`${seen.length} unhandled rejection(s) in this test file`)
  process.exitCode = 1
})
