import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { oidcCallbackPath, type OidcConfig } from '../../core/config/config-schema.js';
import { internalError, signInCallbackInvalid, userDisabledAtSignIn } from '../../core/errors/error-codes.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import type { Clock } from '../../core/di/injection-tokens.js';
import { readBearerCredential } from '../../core/tokens/read-credentials.js';
import { UserStatus } from '../../core/users/user-repository.js';
import type { UserService } from '../../core/users/user-service.js';
import { envelope, loginRoute } from '../management/management-route.js';
import { roleFromClaims, usernameClaim } from './identity-claims.js';
import { OidcRelyingParty } from './oidc-relying-party.js';
import { signInFlowMilliseconds, SignInFlows } from './sign-in-flows.js';
import { sendSignInFailure } from './sign-in-page.js';

/** The route that starts a sign-in with the identity provider; the console links to it. */
export const oidcStartPath = '/api/sign-in/oidc';

/** The console reads the login token of a single sign-on from this fragment parameter, then removes it. */
export const loginTokenFragment = 'login_token';

const flowCookie = 'model_gateway_sign_in';

const open = { config: { auth: 'none' } } as const;

/** The value of cookie `name` in the request's Cookie header(s), if any. */
function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** The request's query as the provider wrote it (fastify's parsed object would merge repeated parameters). */
const rawQuery = (request: FastifyRequest) => new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');

/** What the sign-in routes are given. */
export interface SignInRoutesOptions {
  /** `auth.oidc`; absent, the console offers the login token only. */
  oidc: OidcConfig | undefined;
  users: UserService;
  /** The key a started sign-in's cookie is sealed with (`SecretKeys.signInFlow`). */
  flowKey: Buffer;
  clock: Clock;
}

/**
 * The console's sign-in beside the pasted login token:
 * - `GET /api/sign-in` (no credential): how one may sign in, so the console can offer the
 *   identity provider's button: `{ oidc: { display_name, url } }`, or `{ oidc: null }`;
 * - `POST /api/sign-out` (a login token): ends the login session the token opens (a single
 *   sign-on's); a user's own login token is left as it is, since it is no session;
 * - with `auth.oidc`, `GET /api/sign-in/oidc` sends the browser to the provider and
 *   `GET /api/sign-in/oidc/callback` completes the sign-in: the user is found by issuer and
 *   subject (or created, its role from `admin_claim`), a disabled one refused, and a login
 *   session of `session_hours` started. Its login token goes to the console in the URL's
 *   fragment, which the browser sends to no server and the console removes at once. A failure
 *   is a page that says what happened, with its 4xx or 502 status.
 */
export async function signInRoutes(app: FastifyInstance, options: SignInRoutesOptions): Promise<void> {
  const { oidc, users, clock } = options;

  app.get('/api/sign-in', open, async () => envelope({ oidc: oidc === undefined ? null : { display_name: oidc.display_name, url: oidcStartPath } }));

  app.post('/api/sign-out', loginRoute, async (request) => {
    // The login guard has accepted this very credential.
    const credential = readBearerCredential({ rawHeaders: request.raw.rawHeaders, query: request.query }) ?? '';
    return envelope({ session_ended: await users.endSession(credential) });
  });

  if (oidc === undefined) return;
  const relyingParty = new OidcRelyingParty(oidc);
  const flows = new SignInFlows(options.flowKey);
  // The gateway's public address is what precedes the callback path in redirect_url (a proxy's prefix included).
  const redirect = new URL(oidc.redirect_url);
  const prefix = redirect.pathname.slice(0, -oidcCallbackPath.length);
  const consoleUrl = new URL(`${prefix}/console/`, redirect).href;
  const cookieAttributes = `Path=${prefix}${oidcStartPath}; HttpOnly; SameSite=Lax${redirect.protocol === 'https:' ? '; Secure' : ''}`;

  const fail = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    const presented = GatewayError.is(error) ? error : internalError(error);
    if (presented.statusCode >= 500) request.log.error({ err: error, code: presented.code }, 'sign-in with the identity provider failed');
    else request.log.warn({ code: presented.code, reason: presented.message }, 'sign-in with the identity provider refused');
    return sendSignInFailure(reply, presented, consoleUrl);
  };

  app.get(oidcStartPath, open, async (request, reply) => {
    try {
      const { url, checks } = await relyingParty.authorizationUrl();
      reply.header('set-cookie', `${flowCookie}=${flows.seal(checks, clock.now())}; Max-Age=${signInFlowMilliseconds / 1000}; ${cookieAttributes}`).header('cache-control', 'no-store');
      return reply.redirect(url.href, 302);
    } catch (error) {
      return fail(request, reply, error);
    }
  });

  app.get(oidcCallbackPath, open, async (request, reply) => {
    // The flow ends here whatever happens next: the same callback cannot be tried twice.
    reply.header('set-cookie', `${flowCookie}=; Max-Age=0; ${cookieAttributes}`).header('cache-control', 'no-store');
    try {
      const query = rawQuery(request);
      const state = query.get('state');
      if (state === null || state === '') throw signInCallbackInvalid('the sign-in callback has no state parameter');
      const flow = flows.open(state, cookieOf(request, flowCookie), clock.now());
      if (!flow.found) throw signInCallbackInvalid(flow.why);
      if (!query.has('error') && (query.get('code') ?? '') === '') throw signInCallbackInvalid('the sign-in callback has no code parameter');
      const identity = await relyingParty.complete(query, flow.checks);
      const user = await users.signInWithIdentity(
        { issuer: identity.issuer, subject: identity.subject },
        { username: usernameClaim(identity.claims, identity.subject), role: roleFromClaims(oidc.admin_claim, identity.claims) },
      );
      if (user.status === UserStatus.disabled) throw userDisabledAtSignIn(user.username);
      const { loginToken } = await users.startSession(user, oidc.session_hours * 3600);
      request.log.info({ user_id: user.id, role: user.role }, 'signed in with the identity provider');
      return reply.redirect(`${consoleUrl}#${loginTokenFragment}=${loginToken}`, 303);
    } catch (error) {
      return fail(request, reply, error);
    }
  });
}
