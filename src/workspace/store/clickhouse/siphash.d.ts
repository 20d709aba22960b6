/** The `siphash24` package (SipHash-2-4 in WebAssembly, CommonJS): 8 bytes out, little-endian. */
declare module 'siphash24' {
  function siphash24(data: Uint8Array, key: Uint8Array, out?: Uint8Array): Uint8Array
  export default siphash24
}
