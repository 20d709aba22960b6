/**
 * Secrets compared in constant time: both sides are hashed first, so the comparison takes the
 * same time whatever the lengths and wherever the first difference is.
 */
import crypto from 'node:crypto'

export function secretDigest(secret: string): Buffer {
  return crypto.createHash('sha256').update(secret).digest()
}

/** Compares a presented secret against the digest of the expected one. */
export function matchesDigest(presented: string, expected: Buffer): boolean {
  return crypto.timingSafeEqual(secretDigest(presented), expected)
}

export function sameSecret(presented: string, expected: string): boolean {
  return matchesDigest(presented, secretDigest(expected))
}
