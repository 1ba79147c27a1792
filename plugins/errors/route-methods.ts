/**
 * The methods each registered path answers, so a request whose path exists but whose method
 * does not gets 405 with an `Allow` header instead of 404 (RFC 9110 §15.5.6). Paths are
 * matched as the router matches them: case-insensitive, duplicate and trailing slashes ignored,
 * `:param` one segment, `*` the rest.
 */
export class RouteMethods {
  readonly #routes: { pattern: RegExp; methods: Set<string> }[] = [];
  readonly #byUrl = new Map<string, Set<string>>();

  /** Records a route fastify registers (its `onRoute` hook). */
  add(method: string | readonly string[], url: string): void {
    let methods = this.#byUrl.get(url);
    if (methods === undefined) {
      methods = new Set();
      this.#byUrl.set(url, methods);
      this.#routes.push({ pattern: patternOf(url), methods });
    }
    for (const one of typeof method === 'string' ? [method] : method) methods.add(one.toUpperCase());
  }

  /** The methods some route answers on `path` (no query), sorted; empty when no route has that path. */
  allowed(path: string): string[] {
    const normalized = `/${path.split('/').filter((segment) => segment !== '').join('/')}`;
    const found = new Set<string>();
    for (const route of this.#routes) if (route.pattern.test(normalized)) for (const method of route.methods) found.add(method);
    return [...found].sort();
  }
}

function patternOf(url: string): RegExp {
  const segments = url
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^/${segments.join('/')}$`, 'i');
}
