import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../core/errors/error-codes.js';
import { readConsoleBuild, type ConsoleFile } from './console-build.js';

/**
 * The console's Content-Security-Policy: scripts, styles, requests and images from the
 * gateway's own origin only (images also as `data:` URIs), no inline script or style, no
 * plugins, no framing, no `<base>`, forms posting nowhere else. The console sets styles only
 * through the CSSOM (as uPlot does), which the policy allows.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** The headers every console answer carries (and every page the gateway shows a person, such as a failed sign-in's). */
export const consoleSecurityHeaders = {
  'content-security-policy': consoleContentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/** Hashed file names change with their content, so a browser may keep them for a year. */
const immutable = 'public, max-age=31536000, immutable';

const notBuilt =
  'The web console is not built, so this gateway cannot serve it.\n' +
  'Run `npm run build` (it writes dist/console), then start the gateway again.\n';

/** What the console plugin is given. */
export interface ConsoleRoutesOptions {
  /** The folder `npm run build` wrote the console to (`dist/console` of the package). */
  directory: string;
}

/**
 * The web console at `/console`, served by the gateway itself from the build read into
 * memory at start: `/console/assets/*` (hashed, cached for a year), and `index.html` for
 * `/console` and every other path under it (the console's own pages, which it routes in
 * the browser), revalidated on each load. `GET /` and `/dashboard` lead there. Every answer
 * carries a strict Content-Security-Policy. A gateway without a build answers 503 with a
 * sentence that says how to build it.
 */
export async function consoleRoutes(app: FastifyInstance, options: ConsoleRoutesOptions): Promise<void> {
  const build = readConsoleBuild(options.directory);
  if (build === undefined) app.log.warn({ directory: options.directory }, 'the web console is not built; /console answers 503 until `npm run build` writes it');

  const send = (request: FastifyRequest, reply: FastifyReply, file: ConsoleFile, cacheControl: string) => {
    reply.headers({ ...consoleSecurityHeaders, 'cache-control': cacheControl, etag: file.etag, vary: 'accept-encoding' }).type(file.type);
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (file.gzipped !== undefined && acceptsGzip) return reply.header('content-encoding', 'gzip').send(file.gzipped);
    return reply.send(file.body);
  };
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (build === undefined) return reply.code(503).headers(consoleSecurityHeaders).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(notBuilt);
    return send(request, reply, build.index, 'no-cache');
  };
  const open = { config: { auth: 'none' } } as const;

  app.get('/console', open, page);
  app.get('/console/*', open, page);
  app.get('/console/assets/:file', open, async (request, reply) => {
    const { file } = request.params as { file: string };
    const asset = build?.assets.get(file);
    if (asset === undefined) throw notFound(`the console has no asset ${file.slice(0, 100)}`);
    return send(request, reply, asset, immutable);
  });
  const toConsole = async (_request: FastifyRequest, reply: FastifyReply) => reply.redirect('/console/', 302);
  app.get('/', open, toConsole);
  app.get('/dashboard', open, toConsole);
}
