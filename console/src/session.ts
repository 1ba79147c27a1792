// The login token lives in this tab's sessionStorage only: it is gone when the tab closes,
// never a cookie (so no request carries it unasked, and there is no CSRF to defend), and it is
// sent as `Authorization: Bearer` by the API client alone.

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
