import type { FastifyReply } from 'fastify';
import type { GatewayError } from '../../core/errors/gateway-error.js';
import { consoleSecurityHeaders } from '../console/console-routes.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * Answers a failed sign-in with a page a person reads in the browser the provider sent back:
 * the error's status, a sentence that says what happened and what to do, its code, and a link
 * back to the console's sign-in. Under the console's headers (its CSP allows no inline style,
 * so the page has none), and never cached.
 */
export function sendSignInFailure(reply: FastifyReply, error: GatewayError, consoleUrl: string): FastifyReply {
  const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in failed · Model Gateway</title></head>
<body>
<main>
<h1>Sign-in failed</h1>
<p role="alert">${escapeHtml(error.message)}</p>
<p>Error code: <code>${escapeHtml(error.code)}</code></p>
<p><a href="${escapeHtml(consoleUrl)}">Back to the sign-in page</a></p>
</main>
</body>
</html>
`;
  return reply.code(error.statusCode).headers({ ...consoleSecurityHeaders, 'cache-control': 'no-store' }).type('text/html; charset=utf-8').send(page);
}
