/**
 * A signal that aborts after `ms` or when any given signal aborts, held by a real timer.
 *
 * Why not `AbortSignal.any([s, AbortSignal.timeout(ms)])`: a timeout signal that nothing
 * strongly references can be garbage-collected before it fires (its timer is weak and
 * unref'd), so an attempt waiting on a peer that never answers would wait forever once a GC
 * ran. Here the timer holds the controller until `clear()` (call it when the work ends, in a
 * `finally`); the timer is unref'd, so it never keeps a process alive by itself.
 */
export interface Deadline {
  signal: AbortSignal
  clear(): void
}

export function deadline(ms: number, ...signals: AbortSignal[]): Deadline {
  const ctl = new AbortController()
  const timer = setTimeout(
    () => ctl.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError')),
    ms,
  )
  timer.unref()
  const signal = signals.length ? AbortSignal.any([...signals, ctl.signal]) : ctl.signal
  return { signal, clear: () => clearTimeout(timer) }
}
