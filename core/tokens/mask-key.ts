/** The key as lists show it: the first 4 characters, 10 asterisks, the last 4. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '*'.repeat(key.length);
  return `${key.slice(0, 4)}${'*'.repeat(10)}${key.slice(-4)}`;
}
