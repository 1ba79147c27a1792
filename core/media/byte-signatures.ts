/** Whether `bytes` holds `signature` at `offset`. */
export const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);

/** The byte values of an ASCII text, for signatures written as text (`GIF89a`). */
export const ascii = (text: string): number[] => [...text].map((character) => character.charCodeAt(0));
