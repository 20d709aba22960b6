/** A value as a script sees it: what a point's key may hold on the host side of the sandbox. */
export type PlValue = string | number | bigint | boolean | null | Uint8Array | object
