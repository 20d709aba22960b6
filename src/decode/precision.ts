/**
 * Timestamp precision (spec 4.1): explicit units multiply the stored value; without one the
 * unit is guessed from the magnitude. A missing, zero or negative timestamp becomes the receive
 * time, whatever the precision (the spec's rule, not the reference agent's overflow bug).
 */
export const PRECISIONS = ['n', 'u', 'ms', 's', 'm', 'h'] as const
export type Precision = (typeof PRECISIONS)[number]

/** Nanoseconds per unit of each precision. */
export const FACTOR: Record<Precision, bigint> = {
  n: 1n,
  u: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
}

/** Aliases that influx-style clients send. */
const ALIASES: Record<string, Precision> = { ns: 'n', us: 'u', µs: 'u' }

export function parsePrecision(s: string): Precision | undefined {
  if ((PRECISIONS as readonly string[]).includes(s)) return s as Precision
  return ALIASES[s]
}

const INT64_MAX = 9223372036854775807n

/** The guess of spec 4.1 rule 2: 10 digits are seconds, 13 milliseconds, 16 microseconds. */
export function guessFactor(t: bigint): bigint {
  if (t < 10_000_000_000n) return FACTOR.s
  if (t < 10_000_000_000_000n) return FACTOR.ms
  if (t < 10_000_000_000_000_000n) return FACTOR.u
  return 1n
}

/** Returns the time in ns, or null when scaling overflows int64. */
export function resolveTime(
  raw: bigint | null,
  precision: Precision | null,
  now: bigint,
): bigint | null {
  if (raw === null || raw <= 0n) return now
  const t = raw * (precision ? FACTOR[precision] : guessFactor(raw))
  return t > INT64_MAX ? null : t
}
