import { parseEmbeddedJson } from './json-depth.js';

/** Which fields of a form stand for JSON values other than strings. */
export interface FormFieldKinds {
  /** Read as true or false (any case, white space around). */
  booleans?: readonly string[];
  /** Read as numbers when they are whole numbers (a sign allowed, white space around). */
  integers?: readonly string[];
  /** Read as the JSON they hold: objects and lists a form can only send as text. */
  json?: readonly string[];
}

/**
 * A multipart form's text fields as the JSON body they stand for, so one strict schema checks
 * both. A value that does not read as its kind (or JSON nested too deep to translate safely)
 * stays text, and the schema's message for the field then says what it wants.
 */
export function readFormFields(fields: Record<string, unknown>, kinds: FormFieldKinds): Record<string, unknown> {
  const read = { ...fields };
  const each = (names: readonly string[] | undefined, convert: (text: string) => unknown) => {
    for (const name of names ?? []) {
      const value = read[name];
      if (typeof value === 'string') read[name] = convert(value);
    }
  };
  each(kinds.booleans, (text) => (/^\s*(true|false)\s*$/i.test(text) ? text.trim().toLowerCase() === 'true' : text));
  each(kinds.integers, (text) => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : text));
  each(kinds.json, (text) => {
    const parsed = parseEmbeddedJson(text);
    return parsed.kind === 'json' ? parsed.value : text;
  });
  return read;
}
