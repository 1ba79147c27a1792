import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/build-test-app.js';

/** The cookies a browser would keep, reduced to what one sign-in needs: name and value per origin. */
export class CookieJar {
  readonly #byOrigin = new Map<string, Map<string, string>>();

  keep(origin: string, setCookies: readonly string[]): void {
    const cookies = this.#byOrigin.get(origin) ?? new Map<string, string>();
    this.#byOrigin.set(origin, cookies);
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (/max-age=0\b/i.test(line) || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  header(origin: string): string {
    return [...(this.#byOrigin.get(origin) ?? [])].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

const setCookiesOf = (response: LightMyRequestResponse): string[] => {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
};

/** How a person answers the provider's pages: sign in as `login`, then consent; or cancel at the first page. */
export type ProviderAnswer = { login: string } | { cancel: true };

/**
 * A browser's sign-in, over HTTP without a browser: the gateway's start (by inject), the
 * provider's development interactions (login with any password, then consent, by fetch), and
 * the gateway's callback (by inject), with the cookies of each side kept as a browser keeps
 * them. Answers the callback's response; `jar` may carry the provider's session to a next
 * sign-in, which then asks nothing. `onCallback` hears the callback's path and the cookies
 * the browser sends with it, for a test that replays them.
 */
export async function signInThroughProvider(
  gateway: TestApp,
  answer: ProviderAnswer,
  jar = new CookieJar(),
  onCallback: (url: string, cookie: string) => void = () => {},
): Promise<LightMyRequestResponse> {
  const redirectUrl = gateway.config.auth.oidc?.redirect_url;
  if (redirectUrl === undefined) throw new Error('the gateway has no auth.oidc');
  const gatewayOrigin = new URL(redirectUrl).origin;
  const started = await gateway.app.inject({ method: 'GET', url: '/api/sign-in/oidc' });
  if (started.statusCode !== 302) throw new Error(`the sign-in did not start: ${started.statusCode} ${started.body}`);
  jar.keep(gatewayOrigin, setCookiesOf(started));
  let next = new URL(String(started.headers.location));
  for (let step = 0; step < 20; step += 1) {
    if (next.href.startsWith(redirectUrl)) {
      const url = `${next.pathname}${next.search}`;
      onCallback(url, jar.header(gatewayOrigin));
      return gateway.app.inject({ method: 'GET', url, headers: { cookie: jar.header(gatewayOrigin) } });
    }
    const response = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header(next.origin) } });
    jar.keep(next.origin, response.headers.getSetCookie());
    let location = response.headers.get('location');
    if (location === null && response.status === 200) {
      const page = await response.text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (prompt === undefined) throw new Error(`the provider's page asks nothing known: ${page.slice(0, 300)}`);
      if ('cancel' in answer) {
        location = /href="([^"]*\/abort)"/.exec(page)?.[1] ?? null;
      } else {
        const action = /action="([^"]+)"/.exec(page)?.[1] ?? next.pathname;
        const form = new URLSearchParams(prompt === 'login' ? { prompt, login: answer.login, password: 'any password' } : { prompt });
        const submitted = await fetch(new URL(action, next), {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: jar.header(next.origin), 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        });
        jar.keep(next.origin, submitted.headers.getSetCookie());
        location = submitted.headers.get('location');
      }
    } else {
      await response.body?.cancel();
    }
    if (location === null) throw new Error(`the provider answered ${response.status} at ${next.href} without a way on`);
    next = new URL(location, next);
  }
  throw new Error('the sign-in went round the provider more than 20 times');
}
