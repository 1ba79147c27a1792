import { invalidRequest } from '../../core/index.js';

/**
 * Refuses the fields of `object` that the chat side has no way to say: a 400 naming the
 * first one not in `known` (`reasoning.context`, `tools[2].defer_loading`). A field set to
 * null says nothing and passes. The request schema is loose so a native upstream gets every
 * field; a translation must not drop one silently instead.
 */
export function refuseUnknownFields(object: object, known: readonly string[], path = ''): void {
  for (const [key, value] of Object.entries(object)) {
    if (value === null || value === undefined || known.includes(key)) continue;
    const field = path === '' ? key : `${path}.${key}`;
    throw invalidRequest(`${field}: this field cannot be served on this model, whose family speaks chat completions; remove it, or call a model that serves Responses natively`, {
      param: field,
    });
  }
}
