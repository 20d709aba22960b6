/**
 * Polling for what a test waits on (uploads, retries and background jobs are asynchronous):
 * `fn` is called every 100 ms until it returns something other than null, or the time is up.
 */
export async function until<T>(fn: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v !== null) return v
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 100))
  }
}
