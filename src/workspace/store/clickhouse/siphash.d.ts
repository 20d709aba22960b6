/** The `siphash` package (SipHash-2-4, CommonJS): the 64-bit result as its high and low 32 bits. */
declare module 'siphash' {
  const SipHash: {
    hash(key: number[], message: Uint8Array | string): { h: number; l: number }
  }
  export default SipHash
}
