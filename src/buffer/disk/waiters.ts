/** Readers waiting for a category's next record: woken by a push, released by their signal. */
import type { Category } from '../../shared/category.js'

export class Waiters {
  private readonly byCategory = new Map<Category, Set<() => void>>()

  /** Resolves at once when `ready()`, else on the next `wake(category)` or when aborted. */
  wait(category: Category, ready: () => boolean, signal: AbortSignal): Promise<void> {
    if (ready() || signal.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const set = this.byCategory.get(category) ?? new Set()
      this.byCategory.set(category, set)
      const done = () => {
        set.delete(done)
        signal.removeEventListener('abort', done)
        resolve()
      }
      set.add(done)
      signal.addEventListener('abort', done, { once: true })
    })
  }

  wake(category: Category): void {
    for (const w of [...(this.byCategory.get(category) ?? [])]) w()
  }

  /** Releases everyone (shutdown). */
  wakeAll(): void {
    for (const set of this.byCategory.values()) for (const w of [...set]) w()
  }
}
