import { randomInt } from 'node:crypto';

const alphanumeric = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from `[0-9A-Za-z]` with a cryptographic generator. */
export function randomAlphanumeric(length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += alphanumeric[randomInt(alphanumeric.length)];
  return text;
}
