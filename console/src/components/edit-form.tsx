import type { ComponentChildren } from 'preact';
import { Notice } from './field';

/**
 * A form that creates or edits a record: the error for the whole form above its inputs, then
 * the submit button (disabled while `busy`) and Cancel.
 */
export function EditForm(props: {
  class: string;
  onSubmit: (event: Event) => void;
  error: string | undefined;
  busy?: boolean;
  submitLabel: string;
  onCancel: () => void;
  children: ComponentChildren;
}) {
  return (
    <form class={props.class} onSubmit={props.onSubmit} noValidate>
      {props.error !== undefined && <Notice kind="error">{props.error}</Notice>}
      {props.children}
      <div class="actions">
        <button type="submit" class="primary" disabled={props.busy}>
          {props.submitLabel}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
