import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { messageOf } from './field';

/** The errors a form shows beside its inputs, by input. */
export type InputErrors<State> = Partial<Record<keyof State, string>>;

/**
 * The state of a form that creates or edits a record through the API: the values as typed, the
 * errors shown beside inputs, an error for the whole form, and whether a save is under way.
 */
export interface EditFormState<State> {
  state: State;
  set: (changes: Partial<State>) => void;
  errors: InputErrors<State>;
  /** Shows errors beside inputs: those the form finds itself, before it sends anything. */
  setErrors: (errors: InputErrors<State>) => void;
  formError: string | undefined;
  busy: boolean;
  /** Hides the errors of the last try. */
  clearErrors: () => void;
  /**
   * Runs `save` with the form busy. The API names the field it refuses: its error is shown
   * beside the input `inputOfField` gives for that field, any other error for the whole form.
   */
  save: (save: () => Promise<void>) => Promise<void>;
}

/** An {@link EditFormState} starting with `initial()`. */
export function useEditForm<State>(initial: () => State, inputOfField: Readonly<Record<string, keyof State>>): EditFormState<State> {
  const [state, setState] = useState(initial);
  const [errors, setErrors] = useState<InputErrors<State>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  return {
    state,
    set: (changes) => setState((previous) => ({ ...previous, ...changes })),
    errors,
    setErrors,
    formError,
    busy,
    clearErrors: () => {
      setErrors({});
      setFormError(undefined);
    },
    save: async (save) => {
      setBusy(true);
      try {
        await save();
      } catch (error) {
        const input = error instanceof ApiError && error.field !== undefined ? inputOfField[error.field] : undefined;
        if (input !== undefined) setErrors({ [input]: messageOf(error) } as InputErrors<State>);
        else setFormError(messageOf(error));
      } finally {
        setBusy(false);
      }
    },
  };
}
