import type { FieldPath, FormTemplate, FuzzEnvironment, FuzzRoute } from './fuzz-routes.js';

/** One request as `app.inject` sends it. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  payload?: string | Buffer;
}

/** The parts of a route's valid request, before an input class breaks some of them. */
export interface RequestParts {
  method: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string | string[]>;
  json?: Record<string, unknown>;
  form?: FormTemplate;
}

/** The valid request of a route. */
export function validParts(route: FuzzRoute, environment: FuzzEnvironment): RequestParts {
  const headers: Record<string, string> = {};
  if (route.auth === 'api') headers.authorization = `Bearer ${environment.apiKey}`;
  if (route.auth === 'login') headers.authorization = `Bearer ${environment.loginToken}`;
  return {
    method: route.method,
    path: route.path,
    params: route.params?.(environment) ?? {},
    query: route.query?.(environment) ?? {},
    headers,
    json: route.json?.(environment),
    form: route.form?.(environment),
  };
}

/** The URL of the parts; values are percent-encoded unless `raw` says which to leave as given. */
export function urlOf(parts: RequestParts, raw: { params?: boolean; query?: boolean } = {}): string {
  const path = parts.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = parts.params[name] ?? '';
    return raw.params === true ? value : encodeURIComponent(value);
  });
  const query = Object.entries(parts.query)
    .map(([key, value]) => (raw.query === true ? `${key}=${value}` : `${encodeURIComponent(key)}=${encodeURIComponent(value)}`))
    .join('&');
  return query === '' ? path : `${path}?${query}`;
}

/** A multipart/form-data body as a browser writes it. */
export function multipartBody(form: FormTemplate, boundary: string): Buffer {
  const pieces: Buffer[] = [];
  for (const [name, value] of Object.entries(form.fields)) {
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (form.file !== undefined) {
    const { field, name, type, bytes } = form.file;
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`), Buffer.from(bytes), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

export const defaultBoundary = '----fuzzboundary7MA4YWxkTrZu0gW';

/** The request of the parts as they are: JSON as JSON, a form as multipart. */
export function assemble(parts: RequestParts, raw: { params?: boolean; query?: boolean } = {}): FuzzRequest {
  const headers = { ...parts.headers };
  let payload: string | Buffer | undefined;
  if (parts.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = JSON.stringify(parts.json);
  } else if (parts.form !== undefined) {
    headers['content-type'] ??= `multipart/form-data; boundary=${defaultBoundary}`;
    payload = multipartBody(parts.form, defaultBoundary);
  }
  return { method: parts.method, url: urlOf(parts, raw), headers, payload };
}

/** Every path into a JSON value, the root (`[]`) first. */
export function allPaths(value: unknown, prefix: FieldPath = []): FieldPath[] {
  const paths: FieldPath[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...allPaths(item, [...prefix, index])));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) paths.push(...allPaths(item, [...prefix, key]));
  return paths;
}

/** The paths whose value is a string. */
export function stringPaths(value: unknown): FieldPath[] {
  return allPaths(value).filter((path) => typeof valueAt(value, path) === 'string');
}

export function valueAt(value: unknown, path: FieldPath): unknown {
  let current = value;
  for (const step of path) current = (current as Record<string | number, unknown> | undefined)?.[step];
  return current;
}

/** A copy of `root` with `replacement` at `path` (the root itself for `[]`); missing or scalar containers on the way become objects. */
export function withValueAt(root: unknown, path: FieldPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = (typeof root === 'object' && root !== null ? structuredClone(root) : {}) as Record<string | number, unknown>;
  let current = copy;
  for (const step of path.slice(0, -1)) {
    if (typeof current[step] !== 'object' || current[step] === null) current[step] = {};
    current = current[step] as Record<string | number, unknown>;
  }
  current[path.at(-1) as string | number] = replacement;
  return copy;
}
