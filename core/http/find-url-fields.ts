import type { VendorFetchedUrl } from '../contracts/provider/media-fetcher.js';

const httpUrlText = /^\s*https?:/i;

/**
 * Whether text is an http(s) URL however its slashes are written: WHATWG URL parsing reads
 * `http:/10.0.0.1` and `http:\\10.0.0.1` as `http://10.0.0.1/`, and so may the upstream that
 * fetches it, so each spelling is one the address policy must judge.
 */
export const isHttpUrlText = (text: string): boolean => httpUrlText.test(text);

const child = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`);

/**
 * Every http(s) URL under `value` held by a key that `isUrlKey` accepts, each with its field
 * path under `root` (`contents[0].parts[1].fileData.fileUri`). The key's
 * value may be the URL itself or an object whose `url` is (the `image_url: {url}` shape).
 * Text that merely mentions a URL is not a URL field, so only whole-string URLs count.
 * Walked with an explicit stack, so a deeply nested body cannot overflow the call stack.
 */
export function findUrlFields(value: unknown, isUrlKey: (key: string) => boolean, root = ''): VendorFetchedUrl[] {
  const found: VendorFetchedUrl[] = [];
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: root }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    // Uploaded bytes are data, not fields: a Buffer is not walked byte by byte.
    if (typeof current !== 'object' || current === null || ArrayBuffer.isView(current)) continue;
    const entries: Array<[string | number, unknown]> = Array.isArray(current) ? current.map((item, index) => [index, item]) : Object.entries(current);
    const next: Array<{ value: unknown; path: string }> = [];
    for (const [key, item] of entries) {
      const at = child(path, key);
      if (typeof key === 'string' && isUrlKey(key)) {
        if (typeof item === 'string' && isHttpUrlText(item)) {
          found.push({ url: item, field: at });
          continue;
        }
        const nested = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).url : undefined;
        if (typeof nested === 'string' && isHttpUrlText(nested)) found.push({ url: nested, field: `${at}.url` });
      }
      next.push({ value: item, path: at });
    }
    stack.push(...next.reverse());
  }
  return found;
}
