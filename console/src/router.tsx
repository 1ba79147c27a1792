import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** Where the gateway serves the console; its pages are paths below it. */
export const consoleBase = '/console';

/** The console page in the address bar (`tokens` for `/console/tokens`) and its query. */
export interface Route {
  page: string;
  query: URLSearchParams;
}

function currentRoute(): Route {
  const path = location.pathname.toLowerCase().startsWith(consoleBase) ? location.pathname.slice(consoleBase.length) : location.pathname;
  return { page: path.replace(/^\/+|\/+$/g, ''), query: new URLSearchParams(location.search) };
}

const changed = 'console:navigated';

/** Goes to a console page (`/tokens`, `/usage?request_id=…`) without loading the document again. */
export function navigate(to: string): void {
  history.pushState(null, '', `${consoleBase}${to}`);
  dispatchEvent(new Event(changed));
}

/** The current route, following links and the browser's back and forward. */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    addEventListener('popstate', update);
    addEventListener(changed, update);
    return () => {
      removeEventListener('popstate', update);
      removeEventListener(changed, update);
    };
  }, []);
  return route;
}

/** A link to a console page: a real `<a href>` (opens in a new tab, keyboard focusable) that navigates in place on a plain click. */
export function Link(props: { to: string; children: ComponentChildren; class?: string; current?: boolean }) {
  const follow = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={`${consoleBase}${props.to}`} class={props.class} aria-current={props.current === true ? 'page' : undefined} onClick={follow}>
      {props.children}
    </a>
  );
}
