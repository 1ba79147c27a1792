import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api/client';
import type { SignedInUser, SignInMethods } from '../api/types';
import { Field, Notice, messageOf } from '../components/field';
import { forgetLoginToken, storeLoginToken } from '../session';

/**
 * Sign-in: paste a login token; it is checked with `GET /api/user/self` and kept in this tab
 * only. When the gateway has an identity provider (`GET /api/sign-in`), a link to sign in
 * with it comes first.
 */
export function SignIn(props: { onSignedIn: (user: SignedInUser) => void; reason?: string }) {
  const [methods, setMethods] = useState<SignInMethods | undefined>();
  useEffect(() => {
    // Without an answer the pasted token still works; the link is only left out.
    api<SignInMethods>('GET', '/api/sign-in').then(setMethods, () => setMethods(undefined));
  }, []);
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const pasted = token.trim();
    if (pasted === '') {
      setError('paste the login token you were given (it starts with mgu_)');
      return;
    }
    setBusy(true);
    setError(undefined);
    storeLoginToken(pasted);
    try {
      props.onSignedIn(await api<SignedInUser>('GET', '/api/user/self'));
    } catch (failure) {
      forgetLoginToken();
      setError(failure instanceof ApiError && failure.status === 401 ? 'the gateway refused this login token; check it and try again' : messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in" id="content">
      <h1>Model Gateway</h1>
      {props.reason !== undefined && <Notice kind="info">{props.reason}</Notice>}
      {methods?.oidc != null && (
        <section class="card" aria-labelledby="sign-in-sso">
          <h2 id="sign-in-sso">Single sign-on</h2>
          <a class="sign-in-with" href={methods.oidc.url}>
            Sign in with {methods.oidc.display_name}
          </a>
        </section>
      )}
      <form onSubmit={submit} class="card">
        <h2>Sign in</h2>
        <Field label="Login token" hint="Kept in this browser tab only, until you sign out or close it." error={error}>
          {(control) => <input {...control} type="password" autocomplete="off" spellcheck={false} value={token} onInput={(event) => setToken(event.currentTarget.value)} />}
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
