import type { BudgetFields } from '../api/types';
import { Field } from './field';

/** The budget fields as a form holds them: each period's limit in quota units as typed (empty for no limit), and the mode. */
export interface BudgetDraft {
  budgetDaily: string;
  budgetWeekly: string;
  budgetMonthly: string;
  budgetMode: 'hard' | 'soft';
}

/** Which input shows the API's error about a budget field. */
export const budgetInputOfField: Record<string, keyof BudgetDraft> = {
  budget_daily: 'budgetDaily',
  budget_weekly: 'budgetWeekly',
  budget_monthly: 'budgetMonthly',
  budget_mode: 'budgetMode',
};

const limitText = (limit: number | null | undefined) => (limit === null || limit === undefined ? '' : String(limit));
/** A budget input as the API takes it: null (no limit) when empty. */
const limitOf = (text: string) => (text.trim() === '' ? null : Number(text));

/** The draft of a token's or a user's budgets (none for a new one). */
export function budgetDraftOf(fields: BudgetFields | undefined): BudgetDraft {
  return {
    budgetDaily: limitText(fields?.budget_daily),
    budgetWeekly: limitText(fields?.budget_weekly),
    budgetMonthly: limitText(fields?.budget_monthly),
    budgetMode: fields?.budget_mode ?? 'hard',
  };
}

/** The draft as the token and user APIs take it; they check the values and name what is wrong. */
export function budgetFieldsOf(draft: BudgetDraft): BudgetFields {
  return { budget_daily: limitOf(draft.budgetDaily), budget_weekly: limitOf(draft.budgetWeekly), budget_monthly: limitOf(draft.budgetMonthly), budget_mode: draft.budgetMode };
}

/**
 * The budget inputs: a limit per period in quota units (with its USD value as the hint) and
 * whether a request that does not fit is refused or served.
 */
export function BudgetInputs(props: { draft: BudgetDraft; quotaPerUsd: number; errors: Partial<Record<keyof BudgetDraft, string>>; onChange: (changes: Partial<BudgetDraft>) => void; scope: string }) {
  const { draft, quotaPerUsd, errors, onChange } = props;
  return (
    <fieldset>
      <legend>Budgets</legend>
      <p class="hint">Quota units {props.scope} may spend per period, on top of the quota; empty for no limit. A day starts at midnight, a week on Monday, a month on the 1st, in the gateway's time zone.</p>
      <div class="row">
        {(
          [
            ['Daily budget', 'budgetDaily'],
            ['Weekly budget', 'budgetWeekly'],
            ['Monthly budget', 'budgetMonthly'],
          ] as const
        ).map(([label, key]) => (
          <Field key={key} label={label} hint={draft[key].trim() === '' ? 'No limit.' : `${(Number(draft[key]) / quotaPerUsd).toLocaleString('en-US')} USD.`} error={errors[key]}>
            {(control) => <input {...control} type="number" min={0} step={1} inputMode="numeric" value={draft[key]} onInput={(event) => onChange({ [key]: event.currentTarget.value })} />}
          </Field>
        ))}
      </div>
      <Field label="When a request does not fit" error={errors.budgetMode}>
        {(control) => (
          <select {...control} value={draft.budgetMode} onChange={(event) => onChange({ budgetMode: event.currentTarget.value === 'soft' ? 'soft' : 'hard' })}>
            <option value="hard">Refuse it (hard: 429 until the period resets)</option>
            <option value="soft">Serve it and mark it (soft)</option>
          </select>
        )}
      </Field>
    </fieldset>
  );
}
