import { z } from 'zod';
import { pageFields, positiveIntegerText } from './query-fields.js';

/** An empty query value (`?model_name=`, a form's blank field) is no filter at all. */
export const optionalQueryValue = <Schema extends z.ZodType>(schema: Schema) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** Unix seconds in a query. */
export const unixSeconds = z
  .string({ error: 'expected Unix seconds' })
  .regex(/^(0|[1-9][0-9]{0,11})$/, { error: 'expected Unix seconds (a whole number of 0 or more)' })
  .transform(Number);

/** A query's text of at most `maximum` characters. */
export const queryText = (maximum: number) => z.string({ error: 'expected a single string' }).max(maximum, { error: `at most ${maximum} characters` });

/** The filters every log route takes, and its paging (which only the lists read). */
const filterFields = {
  start_timestamp: optionalQueryValue(unixSeconds),
  end_timestamp: optionalQueryValue(unixSeconds),
  type: optionalQueryValue(z.enum(['2', '5', '6'], { error: 'expected 2 (consume), 5 (error) or 6 (refund)' }).transform((value) => Number(value) as 2 | 5 | 6)),
  model_name: optionalQueryValue(queryText(200)),
  token_name: optionalQueryValue(queryText(200)),
  request_id: optionalQueryValue(queryText(128)),
  status: optionalQueryValue(
    z
      .string({ error: 'expected an HTTP status' })
      .regex(/^[1-5][0-9]{2}$/, { error: 'expected an HTTP status (100 to 599)' })
      .transform(Number),
  ),
  ...pageFields,
};

/** The admin's filters add the user. */
const adminFilterFields = { ...filterFields, user_id: optionalQueryValue(positiveIntegerText) };

const exportFields = { format: z.enum(['csv', 'jsonl'], { error: 'expected csv or jsonl' }).default('csv') };

/** A strict query of `fields` whose time range (`start_timestamp`, `end_timestamp`) must not end before it starts. */
export function orderedTimes<Fields extends z.ZodRawShape>(fields: Fields) {
  return z.strictObject(fields).superRefine((query, context) => {
    const { start_timestamp: start, end_timestamp: end } = query as { start_timestamp?: number; end_timestamp?: number };
    if (start !== undefined && end !== undefined && end < start) {
      context.addIssue({ code: 'custom', path: ['end_timestamp'], message: `must not be before start_timestamp (${start})` });
    }
  });
}

/** GET /api/log/self, /self/stat and /self/daily. */
export const ownLogQuery = orderedTimes(filterFields);
/** GET /api/log/self/export. */
export const ownLogExportQuery = orderedTimes({ ...filterFields, ...exportFields });
/** GET /api/log/ and /api/log/stat (admins). */
export const adminLogQuery = orderedTimes(adminFilterFields);
/** GET /api/log/export (admins). */
export const adminLogExportQuery = orderedTimes({ ...adminFilterFields, ...exportFields });
