// The login token lives in this tab's sessionStorage only: it is gone when the tab closes,
// never a cookie (so no request carries it unasked, and there is no CSRF to defend), and it is
// sent as `Authorization: Bearer` by the API client alone. A single sign-on hands it over in
// the URL's fragment (`#login_token=…`), which no browser sends to a server.

const storageKey = 'model-gateway.login-token';

export function storedLoginToken(): string | undefined {
  return sessionStorage.getItem(storageKey) ?? undefined;
}

export function storeLoginToken(token: string): void {
  sessionStorage.setItem(storageKey, token);
}

export function forgetLoginToken(): void {
  sessionStorage.removeItem(storageKey);
}

/**
 * Keeps the login token a single sign-on left in the address's fragment, and removes it from
 * the address at once (the history entry is replaced), before anything could read or share the
 * URL. True when there was one.
 */
export function takeLoginTokenFromAddress(): boolean {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get('login_token');
  if (token === null) return false;
  history.replaceState(history.state, '', location.pathname + location.search);
  if (token === '') return false;
  storeLoginToken(token);
  return true;
}
