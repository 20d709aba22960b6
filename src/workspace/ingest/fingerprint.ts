/**
 * A body's content fingerprint: XXH64 of its decompressed bytes and their length, so the same
 * points re-sent with or without compression have one fingerprint. The workspace keeps it
 * beside the package id (store/dedupe.ts) to tell a re-sent body from another body under a
 * reused id, and only ever compares it within one workspace and category.
 *
 * Why not SHA-256: it cost about 30% of a body's decode time, XXH64 (WebAssembly) about 2%.
 * The price is that XXH64 is not collision-resistant against a chosen input: a client could
 * craft two bodies of equal length and hash, and have the second acknowledged as a duplicate;
 * since fingerprints never cross workspaces, it can only drop its own points, which it could
 * as well not send. By accident, two bodies of one length colliding in 64 bits within one
 * window is negligible (about 10^-6 over 10 million bodies).
 */
import xxhash from 'xxhash-wasm'
import { FerryError } from '../../errors.js'

let h64: ((input: Uint8Array, seed?: bigint) => bigint) | null = null

/**
 * Compiles the hash (WebAssembly, once per thread). Whoever decodes awaits it first: the
 * decoder's start, and each decode worker's task (a settled promise after the first).
 */
export const fingerprintReady: Promise<void> = xxhash().then((x) => {
  h64 = x.h64Raw
})

export function fingerprintOf(body: Uint8Array): string {
  if (!h64)
    throw new FerryError('internalError', 'the fingerprint hash was used before it was ready')
  return `${h64(body).toString(36)}.${body.length.toString(36)}`
}
