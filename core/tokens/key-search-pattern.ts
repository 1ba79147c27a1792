import { invalidRequest } from '../errors/error-codes.js';

/**
 * Compiles the `token` search term into a matcher over full keys. A leading `sk-` is
 * dropped. Without `%` the term matches anywhere in the key; with `%`, the term is matched
 * against the whole key and each `%` stands for any run of characters, so the masked form
 * a list shows (`abcd%wxyz`) finds its token. At most two `%`, never two in a row, and at
 * least two other characters, so a search cannot enumerate every key.
 */
export function compileKeySearchPattern(term: string): (key: string) => boolean {
  const body = term.startsWith('sk-') ? term.slice(3) : term;
  if (!/^[0-9A-Za-z%]+$/.test(body)) {
    throw invalidRequest('token: use only letters, digits and the % wildcard (an sk- prefix is optional)', { param: 'token' });
  }
  const wildcards = body.split('%').length - 1;
  if (wildcards > 2) throw invalidRequest('token: at most 2 % wildcards are allowed', { param: 'token' });
  if (body.includes('%%')) throw invalidRequest('token: two % wildcards in a row are not allowed', { param: 'token' });
  if (body.replaceAll('%', '').length < 2) {
    throw invalidRequest('token: give at least 2 characters besides % wildcards', { param: 'token' });
  }
  if (wildcards === 0) return (key) => key.includes(body);
  const expression = new RegExp(`^${body.replaceAll('%', '.*')}$`);
  return (key) => expression.test(key);
}
