/** Bounded concurrency for one window's bodies: results keep the items' order. */

/** Runs `fn` over items with at most `concurrency` in flight. */
export async function pool<T, R>(
  items: T[],
  concurrency: number,
  fn: (t: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i])
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  return out
}
