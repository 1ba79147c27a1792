import { api } from '../api/client';
import type { Pricing, Token, TokenFields } from '../api/types';
import { BudgetInputs, budgetDraftOf, budgetFieldsOf, budgetInputOfField, type BudgetDraft } from '../components/budget-inputs';
import { EditForm } from '../components/edit-form';
import { Checkbox, Field } from '../components/field';
import { useEditForm } from '../components/use-edit-form';
import { fromDateTimeInput, toDateTimeInput } from '../format';
import { modelsOfToken } from '../pricing';

interface FormState extends BudgetDraft {
  name: string;
  unlimited: boolean;
  quotaUnits: string;
  quotaUsd: string;
  neverExpires: boolean;
  expiry: string;
  group: string;
  crossGroupRetry: boolean;
  limitModels: boolean;
  models: string[];
  allowIps: string;
}

/** Which input shows the API's error about a field of the token object. */
const inputOfField: Record<string, keyof FormState> = {
  name: 'name',
  remain_quota: 'quotaUnits',
  unlimited_quota: 'unlimited',
  expired_time: 'expiry',
  group: 'group',
  cross_group_retry: 'crossGroupRetry',
  model_limits_enabled: 'models',
  model_limits: 'models',
  allow_ips: 'allowIps',
  ...budgetInputOfField,
};

const inThirtyDays = () => Math.floor(Date.now() / 1000) + 30 * 86_400;

function initialState(token: Token | undefined, quotaPerUsd: number): FormState {
  const units = token?.remain_quota ?? 0;
  return {
    name: token?.name ?? '',
    unlimited: token?.unlimited_quota ?? false,
    quotaUnits: String(units),
    quotaUsd: String(units / quotaPerUsd),
    neverExpires: token === undefined || token.expired_time === -1,
    expiry: toDateTimeInput(token === undefined || token.expired_time === -1 ? inThirtyDays() : token.expired_time),
    group: token?.group ?? '',
    crossGroupRetry: token?.cross_group_retry ?? false,
    limitModels: token?.model_limits_enabled ?? false,
    models: token === undefined ? [] : token.model_limits.split(',').filter((model) => model !== ''),
    allowIps: token?.allow_ips ?? '',
    ...budgetDraftOf(token),
  };
}

/** The fields as the token API takes them; the API checks them and names what is wrong. */
function fieldsOf(state: FormState): TokenFields {
  return {
    name: state.name,
    remain_quota: state.quotaUnits.trim() === '' ? 0 : Number(state.quotaUnits),
    unlimited_quota: state.unlimited,
    expired_time: state.neverExpires ? -1 : (fromDateTimeInput(state.expiry) ?? Number.NaN),
    model_limits_enabled: state.limitModels,
    model_limits: state.limitModels ? state.models : [],
    allow_ips: state.allowIps.trim(),
    group: state.group,
    cross_group_retry: state.crossGroupRetry,
    ...budgetFieldsOf(state),
  };
}

/**
 * Create or edit a token, every field of the token object: quota in USD and in units (kept in
 * step), unlimited, expiry with a date picker or never, group, model limits picked from the
 * served models, IP allow-list. The API's errors are shown beside the field they name.
 */
export function TokenForm(props: { token?: Token; pricing: Pricing; onSaved: () => void; onCancel: () => void }) {
  const { pricing } = props;
  const form = useEditForm(() => initialState(props.token, pricing.quota_per_usd), inputOfField);
  const { state, set, errors } = form;
  // The models of the group picked (those of every group walked, for auto), and any picked before.
  const inGroup = modelsOfToken(pricing, { group: state.group, model_limits_enabled: false, model_limits: '' }).map((entry) => entry.model.model_name);
  const servedModels = [...new Set([...inGroup, ...state.models])];
  const groupChoices = [{ value: '', label: 'default (the default group)' }, ...pricing.groups.filter((group) => group.name !== 'default').map((group) => ({ value: group.name, label: `${group.name} (price × ${group.ratio})` }))];
  if (pricing.auto_groups.length > 0) groupChoices.push({ value: 'auto', label: `auto (${pricing.auto_groups.join(', ')}, in order)` });

  const submit = async (event: Event) => {
    event.preventDefault();
    form.clearErrors();
    await form.save(async () => {
      const fields = fieldsOf(state);
      if (props.token === undefined) await api('POST', '/api/token/', { body: fields });
      else await api('PUT', '/api/token/', { body: { id: props.token.id, ...fields } });
      props.onSaved();
    });
  };

  return (
    <EditForm class="token-form" onSubmit={submit} error={form.formError} busy={form.busy} submitLabel={props.token === undefined ? 'Create token' : 'Save changes'} onCancel={props.onCancel}>
      <Field label="Name" hint="1 to 30 characters." error={errors.name}>
        {(control) => <input {...control} value={state.name} maxLength={30} required onInput={(event) => set({ name: event.currentTarget.value })} />}
      </Field>
      <fieldset>
        <legend>Quota</legend>
        <Checkbox label="Unlimited quota" checked={state.unlimited} onChange={(unlimited) => set({ unlimited })} error={errors.unlimited} />
        <div class="row">
          <Field label="Quota in USD" error={undefined}>
            {(control) => (
              <input
                {...control}
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                disabled={state.unlimited}
                value={state.quotaUsd}
                onInput={(event) => {
                  const usd = event.currentTarget.value;
                  set({ quotaUsd: usd, quotaUnits: usd.trim() === '' ? '' : String(Math.round(Number(usd) * pricing.quota_per_usd)) });
                }}
              />
            )}
          </Field>
          <Field label="Quota in units" hint={`${pricing.quota_per_usd.toLocaleString('en-US')} units are 1 USD.`} error={errors.quotaUnits}>
            {(control) => (
              <input
                {...control}
                type="number"
                min={0}
                step={1}
                inputMode="numeric"
                disabled={state.unlimited}
                value={state.quotaUnits}
                onInput={(event) => {
                  const quotaUnits = event.currentTarget.value;
                  set({ quotaUnits, quotaUsd: quotaUnits.trim() === '' ? '' : String(Number(quotaUnits) / pricing.quota_per_usd) });
                }}
              />
            )}
          </Field>
        </div>
      </fieldset>
      <BudgetInputs draft={state} quotaPerUsd={pricing.quota_per_usd} errors={errors} onChange={set} scope="the token" />
      <fieldset>
        <legend>Expiry</legend>
        <Checkbox label="Never expires" checked={state.neverExpires} onChange={(neverExpires) => set({ neverExpires })} />
        <Field label="Expires at (your local time)" error={errors.expiry}>
          {(control) => <input {...control} type="datetime-local" disabled={state.neverExpires} value={state.expiry} onInput={(event) => set({ expiry: event.currentTarget.value })} />}
        </Field>
      </fieldset>
      <fieldset>
        <legend>Routing</legend>
        <Field label="Group" error={errors.group}>
          {(control) => (
            <select {...control} value={state.group} onChange={(event) => set({ group: event.currentTarget.value })}>
              {groupChoices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Checkbox label="Retry in the next group when a group fails (auto only)" checked={state.crossGroupRetry} onChange={(crossGroupRetry) => set({ crossGroupRetry })} error={errors.crossGroupRetry} />
      </fieldset>
      <fieldset class={errors.models === undefined ? '' : 'invalid'}>
        <legend>Model limits</legend>
        <Checkbox label="Only allow the models picked below" checked={state.limitModels} onChange={(limitModels) => set({ limitModels })} />
        <div class="model-picks" role="group" aria-label="Models this token may call">
          {servedModels.map((model) => (
            <Checkbox
              key={model}
              label={model}
              disabled={!state.limitModels}
              checked={state.models.includes(model)}
              onChange={(checked) => set({ models: checked ? [...state.models, model] : state.models.filter((picked) => picked !== model) })}
            />
          ))}
        </div>
        {errors.models !== undefined && <p class="field-error">{errors.models}</p>}
      </fieldset>
      <Field label="IP allow-list" hint="Comma-separated addresses or CIDR ranges, such as 10.0.0.0/8, 2001:db8::1. Empty allows any address." error={errors.allowIps}>
        {(control) => <textarea {...control} rows={2} value={state.allowIps} onInput={(event) => set({ allowIps: event.currentTarget.value })} />}
      </Field>
    </EditForm>
  );
}
