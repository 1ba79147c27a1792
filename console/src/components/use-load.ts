import { useCallback, useEffect, useState } from 'preact/hooks';

/** The state of something loaded from the gateway. */
export interface Loaded<Data> {
  data: Data | undefined;
  error: unknown;
  loading: boolean;
  /** Loads it again (after a change). */
  reload: () => void;
}

/** Loads `load()` now and whenever a value of `deps` changes; a slower earlier load never overwrites a later one. */
export function useLoad<Data>(load: () => Promise<Data>, deps: readonly unknown[]): Loaded<Data> {
  const [state, setState] = useState<{ data: Data | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, reload };
}
