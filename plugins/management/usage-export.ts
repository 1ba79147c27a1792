import { Readable } from 'node:stream';
import { adminOnlyFields, shownUsageRecord, usageRecordFields, type UsageRecord } from '../../core/usage/usage-record.js';

/** The export formats of the log API. */
export type UsageExportFormat = 'csv' | 'jsonl';

/** How many bytes of lines go out in one chunk. */
const chunkCharacters = 64 * 1024;

/** The content type of an export. */
export const exportContentType = (format: UsageExportFormat): string => (format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');

/**
 * The records as CSV (a header row, then one row per record, RFC 4180) or JSON lines, as a
 * stream that reads `records` only as fast as the client takes it: the export is never held
 * in memory. `first` is the iteration's first step, already taken (so a store that fails at
 * once is an error answer, not a cut stream). Admins get {@link adminOnlyFields} too.
 */
export function exportStream(format: UsageExportFormat, first: IteratorResult<UsageRecord>, rest: AsyncIterator<UsageRecord>, admin: boolean): Readable {
  const columns: ReadonlyArray<keyof UsageRecord> = admin ? usageRecordFields : usageRecordFields.filter((field) => !(adminOnlyFields as readonly string[]).includes(field));
  const line = format === 'csv' ? (record: UsageRecord) => csvRow(columns.map((column) => record[column])) : (record: UsageRecord) => `${JSON.stringify(shownUsageRecord(record, admin))}\n`;
  async function* lines(): AsyncGenerator<string> {
    let chunk = format === 'csv' ? csvRow(columns) : '';
    for (let step = first; step.done !== true; step = await rest.next()) {
      chunk += line(step.value);
      if (chunk.length >= chunkCharacters) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk !== '') yield chunk;
  }
  return Readable.from(lines(), { objectMode: false });
}

/** One CSV row: every value quoted when it holds a comma, a quote or a line break. */
function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/**
 * A value as a CSV cell. A text a spreadsheet would run as a formula (starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return: a model name is the client's own text) is written with
 * a leading `'`, so opening the export never runs what a client planted in it.
 */
function csvCell(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
