import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { ConfigError, formatYamlPath } from '../config/config-error.js';
import { priceSchema, type GatewayConfig } from '../config/config-schema.js';
import { packageRoot } from '../config/package-root.js';

const catalogEntrySchema = z.strictObject({
  price: priceSchema,
  stands_for: z.string({ error: 'expected the vendor model this id stands for' }).min(1, { error: 'must not be empty' }),
  source: z.string({ error: 'expected where the price comes from' }).min(1, { error: 'must not be empty' }),
  as_of: z
    .string({ error: 'expected a date such as 2026-11-28' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'expected a date such as 2026-11-28' })
    .refine((date) => !Number.isNaN(Date.parse(date)), { error: 'expected a real date' }),
});

const catalogSchema = z.strictObject({
  models: z.record(z.string().min(1), catalogEntrySchema, { error: 'expected a mapping of model id to entry' }),
});

/** One catalog entry: the price, the vendor model it stands for, where the figure comes from and its date. */
export type PriceCatalogEntry = z.output<typeof catalogEntrySchema>;

/**
 * A validated price catalog: its entries, the prices alone keyed like `pricing`, and the same
 * prices keyed by the vendor model each id stands for (the first word of `stands_for`), so a
 * channel whose `model_map` calls the vendor's own name is priced by the entry.
 */
export interface PriceCatalog {
  file: string;
  entries: Readonly<Record<string, PriceCatalogEntry>>;
  prices: GatewayConfig['pricing'];
  pricesByVendorModel: GatewayConfig['pricing'];
}

/** The vendor model of a `stands_for` text: its first word (`gemini-2.5-pro (Google Gemini API, …)` → `gemini-2.5-pro`). */
export function vendorModelOf(standsFor: string): string {
  return standsFor.trim().split(/[\s;,(]/, 1)[0] ?? '';
}

/** Parses catalog text; throws {@link ConfigError} naming every bad entry by its path. */
export function parsePriceCatalog(text: string, file: string): PriceCatalog {
  let raw: unknown;
  try {
    raw = parse(text, { uniqueKeys: true, prettyErrors: false });
  } catch (error) {
    throw new ConfigError(file, [{ path: '', message: `invalid YAML: ${(error as Error).message.split('\n')[0]}` }]);
  }
  const result = catalogSchema.safeParse(raw ?? {});
  if (!result.success) {
    throw new ConfigError(
      file,
      result.error.issues.flatMap((issue) =>
        issue.code === 'unrecognized_keys'
          ? issue.keys.map((key) => ({ path: formatYamlPath([...issue.path, key]), message: 'unknown key' }))
          : [{ path: formatYamlPath(issue.path), message: issue.message }],
      ),
    );
  }
  const entries = result.data.models;
  const prices = Object.fromEntries(Object.entries(entries).map(([model, entry]) => [model, entry.price]));
  const pricesByVendorModel: GatewayConfig['pricing'] = {};
  // The first id listed for a vendor model wins, as the first of equal patterns does in pricing.
  for (const entry of Object.values(entries)) pricesByVendorModel[vendorModelOf(entry.stands_for)] ??= entry.price;
  return { file, entries, prices, pricesByVendorModel };
}

/** Reads and validates a catalog file. */
export function loadPriceCatalog(file: string): PriceCatalog {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, [{ path: '', message: `cannot read the price catalog (${(error as NodeJS.ErrnoException).code ?? 'error'})` }]);
  }
  return parsePriceCatalog(text, file);
}

/** `config/price-catalog.yaml` of the package this module belongs to ({@link packageRoot}). */
export function shippedPriceCatalogFile(): string {
  return join(packageRoot(), 'config', 'price-catalog.yaml');
}

let shipped: PriceCatalog | undefined;

/** The shipped catalog, read and validated once per process (the first call throws if it is invalid). */
export function shippedPriceCatalog(): PriceCatalog {
  shipped ??= loadPriceCatalog(shippedPriceCatalogFile());
  return shipped;
}
