/**
 * Package ids (`X-Pkg-Id`), the key an upstream deduplicates on.
 *
 * Format: `fy1_<buffer>_<first>_<last>[_<e1>-<e2>][_s<group>]`
 * - `<buffer>`: the buffer's identity, 24 hex digits drawn at random when the buffer is
 *   created and stored in it; a buffer deleted and created again gets a new one, so no two
 *   buffers (agents, hosts, or one host over time) share ids.
 * - `<first>`, `<last>`: the lowest and highest record sequence number the body covers. Sequence
 *   numbers are unique within a buffer across all categories.
 * - `_<e1>-<e2>`: present only when the body is a piece of one record too large for one body:
 *   the first and last PBPoints entry index of the piece within that record (within the
 *   record's points of its sinker group, when grouped).
 * - `_s<group>`: present only for a body of a sinker group with a non-empty `X-Global-Tags`:
 *   16 hex digits of the SHA-256 of that header value, so the bodies one range of records is
 *   split into (one per group) never share an id.
 *
 * An id is a pure function of the content's position in the buffer, never of when or how it
 * was read, so a body sent again after a crash carries the id of the attempt before it.
 */
export const PKG_ID_VERSION = 'fy1'

export function packageId(
  bufferId: string,
  first: number,
  last: number,
  entries?: [number, number],
  group?: string,
): string {
  const base = `${PKG_ID_VERSION}_${bufferId}_${first}_${last}`
  const pieced = entries ? `${base}_${entries[0]}-${entries[1]}` : base
  return group ? `${pieced}_s${group}` : pieced
}
