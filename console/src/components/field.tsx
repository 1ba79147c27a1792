import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/** What a form control needs to be tied to its label, hint and error. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/**
 * A labelled form control with an optional hint and the API's error for it, which screen
 * readers read with the control (`aria-describedby`).
 */
export function Field(props: { label: string; hint?: string; error?: string; class?: string; children: (control: ControlProps) => ComponentChildren }) {
  const id = useId();
  const hintId = props.hint === undefined ? undefined : `${id}-hint`;
  const errorId = props.error === undefined ? undefined : `${id}-error`;
  const describedBy = [hintId, errorId].filter((value) => value !== undefined).join(' ');
  return (
    <div class={`field${props.error === undefined ? '' : ' invalid'}${props.class === undefined ? '' : ` ${props.class}`}`}>
      <label for={id}>{props.label}</label>
      {props.children({ id, 'aria-describedby': describedBy === '' ? undefined : describedBy, 'aria-invalid': props.error === undefined ? undefined : true })}
      {props.hint !== undefined && (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.error !== undefined && (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A checkbox with its label after it. */
export function Checkbox(props: { label: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean; error?: string }) {
  const id = useId();
  return (
    <div class={`checkbox${props.error === undefined ? '' : ' invalid'}`}>
      <input id={id} type="checkbox" checked={props.checked} disabled={props.disabled} onChange={(event) => props.onChange(event.currentTarget.checked)} aria-describedby={props.error === undefined ? undefined : `${id}-error`} />
      <label for={id}>{props.label}</label>
      {props.error !== undefined && (
        <p class="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A message for the whole page or form; read out when it appears. */
export function Notice(props: { kind: 'error' | 'info' | 'success'; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/** An error's message, for a {@link Notice}. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
