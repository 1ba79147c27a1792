import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/client';
import { Field, messageOf } from './field';
import type { FilteredList } from './use-filtered-list';

/** The filters every filter form has: a time range, as `datetime-local` inputs give it. */
interface TimeRange {
  from: string;
  to: string;
}

/** The inputs of a filter form, each one showing the API's error about its query parameter beside it. */
export interface FilterInputs<Filters> {
  text: (name: keyof Filters, label: string, hint?: string) => ComponentChildren;
  /** A choice of `choices` (value and label), or any (the empty value). */
  choice: (name: keyof Filters, label: string, choices: ReadonlyArray<readonly [string, string]>) => ComponentChildren;
}

/**
 * The filter that the list API's error is about: the API names the query parameter it refuses,
 * and `filterOfParameter` says which filter sets that parameter.
 */
export function failedFilterOf<Filters>(error: unknown, filterOfParameter: Readonly<Record<string, keyof Filters>>): keyof Filters | undefined {
  return error instanceof ApiError && error.field !== undefined ? filterOfParameter[error.field] : undefined;
}

/**
 * A list page's filter form: From and To, the page's own inputs, then Apply filters, Clear and
 * the page's own `actions`. The list's error is shown beside the filter it is about (`failed`);
 * any other error is the page's to show.
 */
export function FilterForm<Filters extends Record<keyof Filters, string> & TimeRange>(props: {
  list: FilteredList<Filters>;
  failed: keyof Filters | undefined;
  error: unknown;
  children: (inputs: FilterInputs<Filters>) => ComponentChildren;
  actions?: ComponentChildren;
}) {
  const { list } = props;
  const errorOf = (name: keyof Filters) => (props.failed === name ? messageOf(props.error) : undefined);
  const inputs: FilterInputs<Filters> = {
    text: (name, label, hint) => (
      <Field label={label} hint={hint} error={errorOf(name)}>
        {(control) => <input {...control} value={list.draft[name]} onInput={(event) => list.edit({ [name]: event.currentTarget.value } as Partial<Filters>)} />}
      </Field>
    ),
    choice: (name, label, choices) => (
      <Field label={label} error={errorOf(name)}>
        {(control) => (
          <select {...control} value={list.draft[name]} onChange={(event) => list.edit({ [name]: event.currentTarget.value } as Partial<Filters>)}>
            <option value="">any</option>
            {choices.map(([value, shown]) => (
              <option key={value} value={value}>
                {shown}
              </option>
            ))}
          </select>
        )}
      </Field>
    ),
  };
  const time = (name: keyof TimeRange, label: string) => (
    <Field label={label} error={errorOf(name)}>
      {(control) => <input {...control} type="datetime-local" value={list.draft[name]} onInput={(event) => list.edit({ [name]: event.currentTarget.value } as Partial<Filters>)} />}
    </Field>
  );
  return (
    <form
      class="filters"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        list.apply();
      }}
    >
      {time('from', 'From')}
      {time('to', 'To')}
      {props.children(inputs)}
      <div class="actions">
        <button type="submit" class="primary">
          Apply filters
        </button>
        <button type="button" onClick={list.clear}>
          Clear
        </button>
        {props.actions}
      </div>
    </form>
  );
}
