/** True when `model` matches a channel's model entry: an exact name, or a pattern with `*` for any run of characters. */
export function matchesModelPattern(pattern: string, model: string): boolean {
  if (!pattern.includes('*')) return pattern === model;
  const parts = pattern.split('*');
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (!model.startsWith(first) || model.length < first.length + last.length || !model.endsWith(last)) return false;
  let position = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = model.indexOf(part, position);
    if (found === -1 || found + part.length > model.length - last.length) return false;
    position = found + part.length;
  }
  return true;
}
