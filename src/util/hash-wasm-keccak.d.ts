/** hash-wasm's Keccak-only build (a UMD file; the package's own types describe its index). */
declare module 'hash-wasm/dist/keccak.umd.min.js' {
  const keccak: { createKeccak: typeof import('hash-wasm').createKeccak }
  export default keccak
}
