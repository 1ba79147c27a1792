import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { forbidden, unauthorized, userDisabled } from '../../core/errors/error-codes.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import type { AuthFailureLimiter } from '../../core/security/auth-failure-limiter.js';
import { apiKeyHint, apiKeyPlaces, readApiKey, readBearerCredential, type ApiKeyPlaces, type CredentialSources } from '../../core/tokens/read-credentials.js';
import { wellFormedApiKey, type AuthenticatedToken, type TokenAuthenticator } from '../../core/tokens/token-authenticator.js';
import { UserStatus, type UserRecord } from '../../core/users/user-repository.js';
import type { UserService } from '../../core/users/user-service.js';

/**
 * How the callers of a route authenticate:
 * - `api-key`: a token's API key as `Authorization: Bearer sk-...` (the `/v1` surface);
 * - `native-api-key`: the same, or as `x-gx-api-key`, `x-goog-api-key` or `?key=` (the `/v1beta` surface);
 * - `messages-api-key`: the same, or as `x-api-key` (the Messages format's route);
 * - `login`: a user's login token as `Authorization: Bearer <login token>` (the management API);
 * - `none`: nothing (health, metrics, and a validation page's callback, which checks what it can itself).
 */
export type RouteAuth = 'api-key' | 'native-api-key' | 'messages-api-key' | 'login' | 'none';

const routeAuths: readonly RouteAuth[] = ['api-key', 'native-api-key', 'messages-api-key', 'login', 'none'];

/** A registered route and the authentication it declared. */
export interface DeclaredRoute {
  method: string;
  /** The route's pattern, as registered (`/v1/videos/:video_id`). */
  url: string;
  auth: RouteAuth;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the route's callers authenticate; every route declares it, or the app does not start. */
    auth?: RouteAuth;
  }
  interface FastifyInstance {
    /** Every route of the app with the authentication it declared, in registration order. */
    declaredRoutes: readonly DeclaredRoute[];
  }
}

// Kept beside the request rather than on it, so the only way to read them is through the
// accessors below, which never hand out a missing credential.
const apiTokens = new WeakMap<FastifyRequest, AuthenticatedToken>();
const signedInUsers = new WeakMap<FastifyRequest, UserRecord>();

/**
 * The API token the route's `api-key` guard authenticated. A request without one (a route
 * that declared another kind of auth) is refused with 401; it never reaches the caller as null.
 */
export function apiTokenOf(request: FastifyRequest): AuthenticatedToken {
  const token = apiTokens.get(request);
  if (token === undefined) throw unauthorized('missing API key: send Authorization: Bearer sk-...');
  return token;
}

/** The user the route's `login` guard signed in; 401 when there is none. */
export function signedInUser(request: FastifyRequest): UserRecord {
  const user = signedInUsers.get(request);
  if (user === undefined) throw unauthorized('missing login token: send Authorization: Bearer <login token>', 'unauthorized');
  return user;
}

/**
 * The signed-in user when they are an admin; 403 `admin_required` otherwise (401 when nobody
 * signed in). Admin routes call it first, before reading their input, so a user learns
 * nothing about them but that they are for admins.
 */
export function requireAdmin(request: FastifyRequest): UserRecord {
  const user = signedInUser(request);
  if (user.role !== 'admin') throw forbidden(`${request.method} ${request.routeOptions.url ?? request.url} is for admins only; sign in with an admin's login token`, 'admin_required');
  return user;
}

/** A model route: under `/v1` or `/v1beta`, in whatever case it was registered. */
const isModelRoute = (url: string) => /^\/v1(beta)?(\/|$)/i.test(url);

const credentialSources = (request: FastifyRequest): CredentialSources => ({ rawHeaders: request.raw.rawHeaders, query: request.query });

// How many first characters of a credential name its neighbourhood for the failure counter:
// the 4 a token list shows of a key (so guessing the rest of a masked key is counted as one).
const prefixCharacters = 4;
const loginTokenMarker = 'mgu_';

/**
 * Authentication by route. Every route declares `config.auth` when it is registered; this
 * plugin's `onRoute` hook refuses a route without one (the app does not start) and a model
 * route (`/v1`, `/v1beta`) that asks for anything but an API key or explicitly nothing, and
 * puts the declared guard first among the route's own `onRequest` hooks. So the check follows
 * the route the router chose, never the raw URL: a percent-encoded, doubled-slash,
 * absolute-form or mixed-case spelling of a path reaches the same route and the same guard.
 * The guards run before any body is read, so a bad credential costs no parsing.
 *
 * Registered before every route-owning plugin (`onRoute` sees only later routes).
 */
export const routeAuthPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { authenticator: TokenAuthenticator; users: UserService; failures: AuthFailureLimiter }) => {
    const { authenticator, users, failures } = options;
    await authenticator.start();

    // Only a well-formed key that matched no token is a guess worth counting: a missing or
    // malformed one is refused before any lookup and cannot match anything.
    const authenticateKey = async (request: FastifyRequest, presented: string): Promise<AuthenticatedToken> => {
      try {
        return await authenticator.authenticate(presented, request.ip);
      } catch (error) {
        const key = wellFormedApiKey(presented);
        if (key === undefined || !GatewayError.is(error) || error.code !== 'invalid_api_key') throw error;
        throw await failures.countFailure(error, request.ip, `api-key:${key.slice(0, prefixCharacters)}`);
      }
    };
    const apiKeyGuard = (places: ApiKeyPlaces): onRequestAsyncHookHandler =>
      async function apiKeyGuard(request) {
        failures.refuseLockedAddress(request.ip);
        const key = readApiKey(credentialSources(request), places);
        if (key === undefined) throw unauthorized(`missing API key: send ${apiKeyHint(places)}`);
        apiTokens.set(request, await authenticateKey(request, key));
      };
    const loginGuard: onRequestAsyncHookHandler = async function loginGuard(request) {
      failures.refuseLockedAddress(request.ip);
      const credential = readBearerCredential(credentialSources(request));
      if (credential === undefined) throw unauthorized('missing login token: send Authorization: Bearer <login token>', 'unauthorized');
      const user = await users.authenticate(credential);
      if (user === undefined) {
        const unmarked = credential.startsWith(loginTokenMarker) ? credential.slice(loginTokenMarker.length) : credential;
        throw await failures.countFailure(unauthorized('invalid login token', 'unauthorized'), request.ip, `login:${unmarked.slice(0, prefixCharacters)}`);
      }
      if (user.status === UserStatus.disabled) throw userDisabled('login token');
      signedInUsers.set(request, user);
    };
    const guards: Record<Exclude<RouteAuth, 'none'>, onRequestAsyncHookHandler> = {
      'api-key': apiKeyGuard(apiKeyPlaces.openai),
      'native-api-key': apiKeyGuard(apiKeyPlaces.native),
      'messages-api-key': apiKeyGuard(apiKeyPlaces.messages),
      login: loginGuard,
    };

    const declared: DeclaredRoute[] = [];
    app.decorate('declaredRoutes', declared);
    app.addHook('onRoute', (route) => {
      const name = `${String(route.method)} ${route.url}`;
      const auth = route.config?.auth;
      if (auth === undefined || !routeAuths.includes(auth)) {
        throw new Error(`the route ${name} declares no authentication: register it with config.auth set to one of ${routeAuths.join(', ')}`);
      }
      if (isModelRoute(route.url) && auth === 'login') {
        throw new Error(`the model route ${name} must take an API key (config.auth api-key, native-api-key or messages-api-key) or declare none`);
      }
      declared.push({ method: String(route.method), url: route.url, auth });
      if (auth !== 'none') route.onRequest = [guards[auth], ...[route.onRequest ?? []].flat()];
    });
  },
  { name: 'route-auth' },
);
