import { createKeccak } from 'hash-wasm';

/** keccak256 of bytes, synchronous once loaded. */
export type Keccak = (data: Uint8Array) => Buffer;

/**
 * keccak256 in WebAssembly (hash-wasm): about 15 times faster than the pure-JS one on this kind
 * of machine, which is most of the time of a million-name seed (two hashes per name, about ten
 * per order).
 */
export async function loadKeccak(): Promise<Keccak> {
  const hasher = await createKeccak(256);
  return (data) => {
    hasher.init();
    hasher.update(data);
    return Buffer.from(hasher.digest('binary'));
  };
}
