import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../core/config/config-schema.js';

/** Builds the address a client should use for one of the gateway's own routes. */
export type GatewayAddress = (request: FastifyRequest, path: string) => string;

// Loopback names point at the client's own machine whatever their port, so a link built on
// them cannot send a client (or its API key) anywhere else.
const loopbackNames = ['localhost', '127.0.0.1', '[::1]'];
const wildcardHosts = new Set(['0.0.0.0', '::', '[::]']);

const normalized = (host: string) => host.trim().toLowerCase().replace(/\.(?=:\d+$|$)/, '');

/** `[::1]:8080` → `{ name: '[::1]', port: '8080' }`; a bare IPv6 address is bracketed. */
function splitHost(host: string): { name: string; port: string | undefined } {
  const text = normalized(host);
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(text);
  if (bracketed !== null) return { name: bracketed[1]!, port: bracketed[2] };
  if ((text.match(/:/g) ?? []).length > 1) return { name: `[${text}]`, port: undefined };
  const [name, port] = text.split(':');
  return { name: name!, port };
}

/**
 * How links to the gateway's own routes are built (`server.public_url`, `server.allowed_hosts`).
 * With `public_url` set, every link starts with it. Without it, the request's own host (its
 * Host header, or X-Forwarded-Host from a trusted proxy) is used only when it is allowed: a
 * loopback name (`localhost`, `127.0.0.1`, `[::1]`, any port), the listen `server.host:port`,
 * or an `allowed_hosts` entry (`name` for any port, `name:port` for that port). Any other
 * host, which a client can forge, gets a relative link (`/v1/...`), which a client resolves
 * against the address it called.
 */
export function gatewayAddress(server: GatewayConfig['server']): GatewayAddress {
  const base = server.public_url?.replace(/\/+$/, '');
  if (base !== undefined) return (_request, path) => `${base}${path}`;
  const anyPort = new Set(loopbackNames);
  const exact = new Set<string>();
  const listen = splitHost(server.host);
  if (!wildcardHosts.has(listen.name) && server.port !== 0) exact.add(`${listen.name}:${server.port}`);
  for (const entry of server.allowed_hosts) {
    const { name, port } = splitHost(entry);
    if (port === undefined) anyPort.add(name);
    else exact.add(`${name}:${port}`);
  }
  const allowed = (request: FastifyRequest) => {
    const { name, port } = splitHost(request.host);
    return anyPort.has(name) || exact.has(`${name}:${port ?? (request.protocol === 'https' ? 443 : 80)}`);
  };
  return (request, path) => (allowed(request) ? `${request.protocol}://${request.host}${path}` : path);
}
