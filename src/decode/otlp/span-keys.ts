/**
 * Attribute keys as the trace transcoder meets them, by their bytes: the reference's public
 * attributes (attrs.ts `PUB_ATTRS`, each with the key it becomes) and the keys the mapping
 * treats apart, found by a hash of the key's bytes so no string is made per attribute.
 *
 * Invariant: `keyOf` answers exactly what `selectedKey` and the mapping's key tests answer for
 * the same key with no `customer_tags`; keys the transcoder leaves to the general path
 * (`runtime_id`, public keys that become keys with a dot) answer `K_DECLINE`.
 */
import { PUB_ATTRS } from './attrs.js'

/** Not a key the mapping knows: the attribute stays in the span's message. */
export const K_REST = -1
export const K_DECLINE = -2

export interface KnownKey {
  /** The point key it becomes ('' when it is not a public attribute). */
  pub: string
  service: boolean
  dbSystem: boolean
  dbHost: boolean
}

const known: KnownKey[] = []
const knownBytes: Uint8Array[] = []
const byHash = new Map<number, number[]>()
const declined = new Set<number>()

function hash(b: Uint8Array, a: number, e: number): number {
  let h = 0x811c9dc5
  for (let i = a; i < e; i++) h = Math.imul(h ^ b[i], 0x01000193)
  return h >>> 0
}

function add(key: string, k: KnownKey, decline = false): void {
  const bytes = Buffer.from(key, 'utf8')
  const h = hash(bytes, 0, bytes.length)
  const i = known.length
  known.push(k)
  knownBytes.push(bytes)
  if (decline) declined.add(i)
  byHash.set(h, [...(byHash.get(h) ?? []), i])
}

const plain = { service: false, dbSystem: false, dbHost: false }
for (const [key, pub] of Object.entries(PUB_ATTRS))
  add(
    key,
    { ...plain, pub, dbSystem: key === 'db.system', dbHost: key === 'server.address' },
    pub.includes('.'),
  )
add('service.name', { ...plain, pub: '', service: true })
add('net.peer.name', { ...plain, pub: '', dbHost: true })
add('runtime_id', { ...plain, pub: '' }, true)

/** The known key of `b[a, e)`: its index in `KNOWN`, `K_REST` or `K_DECLINE`. */
export function keyOf(b: Uint8Array, a: number, e: number): number {
  const list = byHash.get(hash(b, a, e))
  if (!list) return K_REST
  for (const i of list) {
    const k = knownBytes[i]
    if (k.length !== e - a) continue
    let same = true
    for (let j = 0; j < k.length && same; j++) same = k[j] === b[a + j]
    if (same) return declined.has(i) ? K_DECLINE : i
  }
  return K_REST
}

export const KNOWN: readonly KnownKey[] = known
