import { useState } from 'preact/hooks';

/**
 * The state of a list page with a filter form: the filters as typed (`draft`), those the list is
 * loaded with (`filters`, set by Apply), the page shown, and the row whose detail is open.
 */
export interface FilteredList<Filters> {
  draft: Filters;
  filters: Filters;
  page: number;
  setPage: (page: number) => void;
  /** The id of the row whose detail is open, if one is. */
  open: number | undefined;
  /** Opens a row's detail, or hides it when it is open. */
  toggle: (id: number) => void;
  /** Changes filters as typed; the list is loaded with them only on {@link apply}. */
  edit: (changes: Partial<Filters>) => void;
  /** Loads the list with the filters as typed, from its first page, every detail hidden. */
  apply: () => void;
  /** Empties the filters and loads the list from its first page. */
  clear: () => void;
}

/** A {@link FilteredList} starting with `initial` (a link may set some filters); Clear goes back to `empty`. */
export function useFilteredList<Filters extends Record<keyof Filters, string>>(empty: Filters, initial: Filters = empty): FilteredList<Filters> {
  const [draft, setDraft] = useState<Filters>(initial);
  const [filters, setFilters] = useState<Filters>(initial);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | undefined>();
  return {
    draft,
    filters,
    page,
    setPage,
    open,
    toggle: (id) => setOpen(open === id ? undefined : id),
    edit: (changes) => setDraft((previous) => ({ ...previous, ...changes })),
    apply: () => {
      setPage(1);
      setOpen(undefined);
      setFilters(draft);
    },
    clear: () => {
      setDraft(empty);
      setFilters(empty);
      setPage(1);
    },
  };
}
