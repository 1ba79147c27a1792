import { api } from '../api/client';
import type { ChannelView } from '../api/types';
import { EditForm } from '../components/edit-form';
import { Checkbox, Field } from '../components/field';
import { useEditForm } from '../components/use-edit-form';

interface FormState {
  name: string;
  plugin: string;
  baseUrl: string;
  keys: string;
  models: string;
  modelMap: string;
  groups: string;
  priority: string;
  weight: string;
  options: string;
  enabled: boolean;
}

/** Which input shows the channel API's error about a field of the entry. */
const inputOfField: Record<string, keyof FormState> = {
  name: 'name',
  plugin: 'plugin',
  base_url: 'baseUrl',
  api_key: 'keys',
  api_keys: 'keys',
  models: 'models',
  model_map: 'modelMap',
  groups: 'groups',
  priority: 'priority',
  weight: 'weight',
  options: 'options',
  enabled: 'enabled',
};

const listOf = (text: string) =>
  text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');

const optionsText = (options: Record<string, unknown>) => (Object.keys(options).length === 0 ? '' : JSON.stringify(options, null, 2));

function initialState(channel: ChannelView | undefined): FormState {
  const entry = channel?.config;
  return {
    name: entry?.name ?? '',
    plugin: entry?.plugin ?? '',
    baseUrl: entry?.base_url ?? '',
    keys: '',
    models: entry?.models.join(', ') ?? '',
    modelMap: Object.entries(entry?.model_map ?? {})
      .map(([client, upstream]) => `${client} = ${upstream}`)
      .join('\n'),
    groups: entry?.groups.join(', ') ?? 'default',
    priority: String(entry?.priority ?? 0),
    weight: String(entry?.weight ?? 1),
    options: optionsText(entry?.options ?? {}),
    enabled: channel?.enabled ?? true,
  };
}

/** A number typed in a field; anything else is sent as typed, so the API names the field. */
const numberOf = (text: string): number | string => (text.trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text);

/** `client = upstream` lines as a mapping; a line without `=` maps a model to itself, which the API takes as written. */
function modelMapOf(text: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const [client = '', ...rest] = line.split('=');
    map[client.trim()] = rest.join('=').trim();
  }
  return map;
}

/**
 * Create a channel, or edit one created here: the fields of a `providers` entry of the config
 * file. Keys are write-only: the API never answers them, so editing leaves the field empty and
 * an empty field keeps the stored key. The API checks everything and names the field it
 * refuses, shown beside it.
 */
export function ChannelForm(props: { channel?: ChannelView; onSaved: (channel: ChannelView) => void; onCancel: () => void }) {
  const editing = props.channel;
  const form = useEditForm(() => initialState(editing), inputOfField);
  const { state, set, errors } = form;
  const masked = editing === undefined ? undefined : (editing.config.api_keys ?? (editing.config.api_key === undefined ? [] : [editing.config.api_key])).join(', ');

  const submit = async (event: Event) => {
    event.preventDefault();
    form.clearErrors();
    let options: unknown;
    if (state.options.trim() !== '' || editing !== undefined) {
      try {
        options = state.options.trim() === '' ? {} : JSON.parse(state.options);
      } catch {
        form.setErrors({ options: 'expected the options as a JSON object, such as {"api_version": "v1beta"}' });
        return;
      }
    }
    const keys = listOf(state.keys);
    const body: Record<string, unknown> = {
      name: state.name.trim(),
      plugin: state.plugin.trim(),
      base_url: state.baseUrl.trim(),
      models: listOf(state.models),
      model_map: modelMapOf(state.modelMap),
      groups: listOf(state.groups),
      priority: numberOf(state.priority),
      weight: numberOf(state.weight),
      ...(keys.length === 1 ? { api_key: keys[0] } : keys.length > 1 ? { api_keys: keys } : {}),
    };
    // Masked option values are never sent back: the options go only when they were changed.
    if (options !== undefined && (editing === undefined || state.options !== optionsText(editing.config.options))) body.options = options;
    if (editing === undefined) body.enabled = state.enabled;
    await form.save(async () => props.onSaved(await api<ChannelView>(editing === undefined ? 'POST' : 'PUT', '/api/channel/', { body })));
  };

  return (
    <EditForm class="token-form channel-form" onSubmit={submit} error={form.formError} busy={form.busy} submitLabel={editing === undefined ? 'Create channel' : 'Save channel'} onCancel={props.onCancel}>
      <Field label="Name" hint="Letters, digits, dots, underscores or dashes; it cannot be changed later." error={errors.name}>
        {(control) => <input {...control} value={state.name} disabled={editing !== undefined} autocomplete="off" onInput={(event) => set({ name: event.currentTarget.value })} />}
      </Field>
      <Field label="Plugin" hint="A built-in family such as gx or gp, or a plugin a channel of the config file uses." error={errors.plugin}>
        {(control) => <input {...control} value={state.plugin} autocomplete="off" onInput={(event) => set({ plugin: event.currentTarget.value })} />}
      </Field>
      <Field label="Base URL" error={errors.baseUrl}>
        {(control) => <input {...control} type="url" value={state.baseUrl} autocomplete="off" onInput={(event) => set({ baseUrl: event.currentTarget.value })} />}
      </Field>
      <Field
        label="API keys"
        hint={masked === undefined ? 'One, or several separated by commas (used in turn). Stored encrypted, never shown again.' : `Leave empty to keep ${masked === '' ? 'no key' : masked}; a new value replaces it.`}
        error={errors.keys}
      >
        {(control) => <input {...control} type="password" value={state.keys} autocomplete="off" onInput={(event) => set({ keys: event.currentTarget.value })} />}
      </Field>
      <Field label="Models" hint="Separated by commas; a pattern such as gx-3* serves every model it matches." error={errors.models}>
        {(control) => <input {...control} value={state.models} autocomplete="off" onInput={(event) => set({ models: event.currentTarget.value })} />}
      </Field>
      <Field label="Model map" hint="One a line: client model = upstream model." error={errors.modelMap}>
        {(control) => <textarea {...control} rows={2} value={state.modelMap} onInput={(event) => set({ modelMap: event.currentTarget.value })} />}
      </Field>
      <Field label="Groups" hint="Separated by commas; groups of the config file." error={errors.groups}>
        {(control) => <input {...control} value={state.groups} autocomplete="off" onInput={(event) => set({ groups: event.currentTarget.value })} />}
      </Field>
      <Field label="Priority" hint="The highest priority is tried first." error={errors.priority}>
        {(control) => <input {...control} inputMode="numeric" value={state.priority} onInput={(event) => set({ priority: event.currentTarget.value })} />}
      </Field>
      <Field label="Weight" hint="Share of the traffic among channels of one priority." error={errors.weight}>
        {(control) => <input {...control} inputMode="numeric" value={state.weight} onInput={(event) => set({ weight: event.currentTarget.value })} />}
      </Field>
      <Field label="Plugin options" hint="JSON, as the plugin takes them; empty for its defaults." error={errors.options}>
        {(control) => <textarea {...control} rows={3} value={state.options} onInput={(event) => set({ options: event.currentTarget.value })} />}
      </Field>
      {editing === undefined && <Checkbox label="Serving (enabled) once created" checked={state.enabled} onChange={(enabled) => set({ enabled })} error={errors.enabled} />}
    </EditForm>
  );
}
