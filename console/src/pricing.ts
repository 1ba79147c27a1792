import { api } from './api/client';
import type { PricedModel, Pricing, Token } from './api/types';

let loaded: Promise<Pricing> | undefined;

/** `GET /api/pricing`, asked once per sign-in: it follows the gateway's config, which does not change while it runs. */
export function loadPricing(): Promise<Pricing> {
  loaded ??= api<Pricing>('GET', '/api/pricing').catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

/** Forgets the prices (on sign-out). */
export function forgetPricing(): void {
  loaded = undefined;
}

/** The groups a token's `group` stands for, as the gateway routes it: empty is `default`, `auto` walks `auto_groups`. */
export function groupsOfToken(pricing: Pricing, tokenGroup: string): string[] {
  if (tokenGroup === 'auto') return pricing.auto_groups;
  return [tokenGroup === '' ? 'default' : tokenGroup];
}

/** The ratio a group's prices are multiplied by (1 for a group the config no longer has). */
export function ratioOf(pricing: Pricing, group: string): number {
  return pricing.groups.find((entry) => entry.name === (group === '' ? 'default' : group))?.ratio ?? 1;
}

/** A model a token may call: the model, and the routes it is called on in the token's groups. */
export interface CallableModel {
  model: PricedModel;
  routes: string[];
  groups: string[];
}

/** The models a token may call: served in its groups, and within its model limits when it has them. */
export function modelsOfToken(pricing: Pricing, token: Pick<Token, 'group' | 'model_limits_enabled' | 'model_limits'>): CallableModel[] {
  const groups = groupsOfToken(pricing, token.group);
  const limits = new Set(token.model_limits.split(',').filter((name) => name !== ''));
  return pricing.models.flatMap((model) => {
    const served = groups.filter((group) => model.enable_groups.includes(group));
    if (served.length === 0 || (token.model_limits_enabled && !limits.has(model.model_name))) return [];
    const routes = [...new Set(served.flatMap((group) => model.routes[group] ?? []))];
    return [{ model, routes, groups: served }];
  });
}
