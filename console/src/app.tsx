import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, whenSignedOut } from './api/client';
import type { SignedInUser } from './api/types';
import { Notice, messageOf } from './components/field';
import { Audit } from './pages/audit';
import { Channels } from './pages/channels';
import { Models } from './pages/models';
import { Overview } from './pages/overview';
import { Playground } from './pages/playground';
import { SignIn } from './pages/sign-in';
import { Tokens } from './pages/tokens';
import { Usage } from './pages/usage';
import { Users } from './pages/users';
import { forgetPricing } from './pricing';
import { Link, useRoute } from './router';
import { forgetLoginToken, storedLoginToken } from './session';

/** What every page is given. */
export interface PageProps {
  user: SignedInUser;
  query: URLSearchParams;
}

interface PageEntry {
  path: string;
  title: string;
  component: ComponentType<PageProps>;
  adminOnly?: boolean;
}

const pages: PageEntry[] = [
  { path: '', title: 'Overview', component: Overview },
  { path: 'tokens', title: 'Tokens', component: Tokens },
  { path: 'usage', title: 'Usage', component: Usage },
  { path: 'playground', title: 'Playground', component: Playground },
  { path: 'models', title: 'Models', component: Models },
  { path: 'channels', title: 'Channels', component: Channels, adminOnly: true },
  { path: 'users', title: 'Users', component: Users, adminOnly: true },
  { path: 'audit', title: 'Audit', component: Audit, adminOnly: true },
];

/** The console: the sign-in page until a login token is accepted, then the pages the user's role may see. */
export function App() {
  const [user, setUser] = useState<SignedInUser | undefined>();
  const [checking, setChecking] = useState(storedLoginToken() !== undefined);
  const [signedOutReason, setSignedOutReason] = useState<string | undefined>();
  const signOut = (reason?: string) => {
    forgetLoginToken();
    forgetPricing();
    setUser(undefined);
    setSignedOutReason(reason);
  };
  useEffect(() => {
    whenSignedOut((message) => signOut(`Signed out: ${message}. Sign in again.`));
    if (storedLoginToken() === undefined) return;
    // A reload of the tab: the token is still in sessionStorage, ask who it belongs to again.
    api<SignedInUser>('GET', '/api/user/self')
      .then(setUser, (error: unknown) => {
        // A token the gateway refused (a disabled user's) is dropped; one it could not check (no answer) is kept for a retry.
        if (error instanceof ApiError && error.status !== 0) forgetLoginToken();
        setSignedOutReason(messageOf(error));
      })
      .finally(() => setChecking(false));
  }, []);
  if (checking) return <p class="loading">Signing in…</p>;
  if (user === undefined) return (
      <SignIn
        reason={signedOutReason}
        onSignedIn={(signedIn) => {
          setUser(signedIn);
          setSignedOutReason(undefined);
        }}
      />
    );
  // A single sign-on's session ends on the gateway too, so its login token is refused from now on.
  const signOutHere = () =>
    void api('POST', '/api/sign-out')
      .catch(() => undefined)
      .finally(() => signOut());
  return <Shell user={user} onSignOut={signOutHere} />;
}

function Shell(props: { user: SignedInUser; onSignOut: () => void }) {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const visible = pages.filter((page) => page.adminOnly !== true || props.user.role === 'admin');
  const entry = pages.find((page) => page.path === route.page);
  useEffect(() => {
    document.title = `${entry?.title ?? 'Not found'} · Model Gateway`;
    // After a navigation a screen reader starts at the new page, not at the link it followed.
    if (document.activeElement?.closest('nav.site')) main.current?.focus();
  }, [route.page]);
  const Page = entry?.component;
  return (
    <>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Model Gateway</span>
        <nav class="site" aria-label="Console pages">
          {visible.map((page) => (
            <Link key={page.path} to={`/${page.path}`} current={page.path === route.page}>
              {page.title}
            </Link>
          ))}
        </nav>
        <div class="who">
          <span>
            {props.user.username} <span class="role">{props.user.role}</span>
          </span>
          <button type="button" class="small" onClick={props.onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="content" ref={main} tabIndex={-1}>
        {entry === undefined || Page === undefined ? (
          <>
            <h1>Not found</h1>
            <p>
              The console has no page here. <Link to="/">Go to the overview</Link>.
            </p>
          </>
        ) : entry.adminOnly === true && props.user.role !== 'admin' ? (
          <>
            <h1>{entry.title}</h1>
            <Notice kind="error">This page is for admins; you are signed in as a user.</Notice>
          </>
        ) : (
          <Page user={props.user} query={route.query} />
        )}
      </main>
    </>
  );
}
