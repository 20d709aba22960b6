/** Min, average, max and population standard deviation of round trips (µs). */
export function stats(xs: number[]): { min: number; avg: number; max: number; std: number } {
  if (!xs.length) return { min: 0, avg: 0, max: 0, std: 0 }
  const avg = xs.reduce((a, b) => a + b, 0) / xs.length
  const std = Math.sqrt(xs.reduce((a, b) => a + (b - avg) ** 2, 0) / xs.length)
  return { min: Math.min(...xs), avg, max: Math.max(...xs), std }
}
