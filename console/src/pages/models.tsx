import { useState } from 'preact/hooks';
import { allPages } from '../api/client';
import type { Price, Token } from '../api/types';
import type { PageProps } from '../app';
import { DataTable } from '../components/data-table';
import { Field, Notice, messageOf } from '../components/field';
import { useLoad } from '../components/use-load';
import { usd } from '../format';
import { loadPricing, modelsOfToken, ratioOf, type CallableModel } from '../pricing';

/** A price entry's keys in words, each per its unit, in USD. */
export function priceParts(price: Price | null, billing: string): string[] {
  if (price === null) return [billing === 'free' ? 'free' : 'no price: refused until the operator prices it'];
  const parts: string[] = [];
  if (price.input_per_mtok !== undefined) parts.push(`input ${usd(price.input_per_mtok)} / 1M tokens`);
  if (price.cached_input_per_mtok !== undefined) parts.push(`cached input ${usd(price.cached_input_per_mtok)} / 1M tokens`);
  if (price.output_per_mtok !== undefined) parts.push(`output ${usd(price.output_per_mtok)} / 1M tokens`);
  if (price.per_image !== undefined) parts.push(`${usd(price.per_image)} / image`);
  if (price.per_second !== undefined) {
    const multipliers = Object.entries(price.resolution_multipliers ?? {}).map(([resolution, factor]) => `${resolution} × ${factor}`);
    parts.push(`${usd(price.per_second)} / second${multipliers.length === 0 ? '' : ` (${multipliers.join(', ')})`}`);
  }
  if (price.per_call !== undefined) parts.push(`${usd(price.per_call)} / call`);
  if (price.per_1k_chars !== undefined) parts.push(`${usd(price.per_1k_chars)} / 1K characters`);
  if (price.per_minute !== undefined) parts.push(`${usd(price.per_minute)} / minute`);
  return parts;
}

/** Models: what a token may call, on which routes, at which prices in USD (before its group's ratio, which is shown). */
export function Models(_props: PageProps) {
  const pricing = useLoad(loadPricing, []);
  const tokens = useLoad(() => allPages<Token>('/api/token/'), []);
  const [tokenId, setTokenId] = useState<string>('');
  const token = tokens.data?.find((candidate) => String(candidate.id) === tokenId);
  const callable: CallableModel[] =
    pricing.data === undefined
      ? []
      : token !== undefined
        ? modelsOfToken(pricing.data, token)
        : pricing.data.models.map((model) => ({ model, groups: model.enable_groups, routes: [...new Set(Object.values(model.routes).flat())] }));
  return (
    <>
      <h1>Models</h1>
      {pricing.error !== undefined && <Notice kind="error">{messageOf(pricing.error)}</Notice>}
      {tokens.error !== undefined && <Notice kind="error">{messageOf(tokens.error)}</Notice>}
      <div class="filters">
        <Field label="Models for" hint="A token may call the models of its group, within its model limits.">
          {(control) => (
            <select {...control} value={tokenId} onChange={(event) => setTokenId(event.currentTarget.value)}>
              <option value="">every group</option>
              {(tokens.data ?? []).map((candidate) => (
                <option key={candidate.id} value={String(candidate.id)}>
                  token {candidate.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {pricing.data !== undefined && (
        <p class="hint">
          Prices in USD before the group's ratio: a request costs the price times its group's ratio ({pricing.data.groups.map((group) => `${group.name} × ${group.ratio}`).join(', ')}).{' '}
          {pricing.data.quota_per_usd.toLocaleString('en-US')} quota units are 1 USD.
        </p>
      )}
      <DataTable caption="Models and their prices" class="models" columns={['Model', 'Routes', 'Price (USD)', 'Groups']}>
        {callable.length === 0 && pricing.data !== undefined && (
          <tr>
            <td colSpan={4}>{token === undefined ? 'The gateway serves no model.' : `The token ${token.name} may call no model.`}</td>
          </tr>
        )}
        {callable.map(({ model, routes, groups }) => (
          <tr key={model.model_name} data-model={model.model_name}>
            <th scope="row" data-label="Model">
              {model.model_name}
            </th>
            <td data-label="Routes">
              <ul class="plain">
                {routes.map((route) => (
                  <li key={route}>
                    <code>{route}</code>
                  </li>
                ))}
              </ul>
            </td>
            <td data-label="Price (USD)">
              <ul class="plain">
                {priceParts(model.price, model.billing).map((part) => (
                  <li key={part}>{part}</li>
                ))}
              </ul>
            </td>
            <td data-label="Groups">{groups.map((group) => `${group} × ${pricing.data === undefined ? 1 : ratioOf(pricing.data, group)}`).join(', ')}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
