/**
 * Rate limit for repeated warnings and errors: per kind of line (its `event`, and `code`,
 * `category`, `input`, `script`, `upstream`, `source` when present) at most `burst` lines are written per window; the rest are counted and summed up in
 * one line, `...and N more like this in the last 10 s`, when the window ends (on the next line
 * of that kind, or on the periodic sweep). Info and lower are never limited, and a line is
 * never lost without being counted in a summary.
 */
export interface LogLimitOptions {
  windowMs: number
  /** Lines of one kind written per window; 0 turns the limit off. */
  burst: number
  /** Milliseconds now (a virtual clock in tests). */
  now?: () => number
}

interface Window {
  start: number
  count: number
  suppressed: number
  /** The first line's fields, repeated in the summary so it can be found by its event. */
  fields: Record<string, unknown>
}

export interface Summary {
  fields: Record<string, unknown>
  message: string
}

/** Pino's numeric level of `warn`: lines at this level and above are limited. */
export const WARN_LEVEL = 40

export class LogLimiter {
  private readonly windows = new Map<string, Window>()
  private readonly now: () => number

  constructor(private readonly o: LogLimitOptions) {
    this.now = o.now ?? Date.now
  }

  get enabled(): boolean {
    return this.o.burst > 0 && this.o.windowMs > 0
  }

  /**
   * Whether the line may be written; `summaries` receives the summary of the kind's previous
   * window when this line starts a new one (written before it, so the order reads true).
   */
  admit(fields: Record<string, unknown>, summaries: (s: Summary) => void): boolean {
    const key = keyOf(fields)
    const now = this.now()
    let w = this.windows.get(key)
    if (w && now - w.start >= this.o.windowMs) {
      this.close(w, summaries)
      w = undefined
    }
    if (!w) {
      this.windows.set(key, { start: now, count: 1, suppressed: 0, fields: pick(fields) })
      return true
    }
    if (++w.count <= this.o.burst) return true
    w.suppressed++
    return false
  }

  /** Closes every window that has ended: its summary, if it held anything back. */
  sweep(summaries: (s: Summary) => void): void {
    const now = this.now()
    for (const [key, w] of this.windows)
      if (now - w.start >= this.o.windowMs) {
        this.close(w, summaries)
        this.windows.delete(key)
      }
  }

  private close(w: Window, summaries: (s: Summary) => void): void {
    if (w.suppressed === 0) return
    summaries({
      fields: { ...w.fields, suppressed: w.suppressed },
      message: `...and ${w.suppressed} more like this in the last ${span(this.o.windowMs)}`,
    })
  }
}

/** "10 s", as people read a window; "250 ms" below a second. */
function span(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}

/** What makes two lines "alike": the event and the bounded fields that say where it happened. */
const KIND_FIELDS = ['event', 'code', 'category', 'input', 'script', 'upstream', 'source']

function keyOf(fields: Record<string, unknown>): string {
  return KIND_FIELDS.map((k) => String(fields[k] ?? '')).join('\u0000')
}

function pick(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of KIND_FIELDS) if (fields[k] !== undefined) out[k] = fields[k]
  return out
}
