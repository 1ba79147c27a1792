import { invalidRequest } from '../../core/index.js';

/** `metadata.callback_url` as it goes upstream: an https URL with a host, else a 400. */
export function checkDsxCallbackUrl(value: string): string {
  const param = 'metadata.callback_url';
  if (!URL.canParse(value)) throw invalidRequest(`${param}: "${value.slice(0, 80)}" is not a URL; give an https URL the upstream can call`, { param });
  const url = new URL(value);
  if (url.protocol !== 'https:' || url.hostname === '') throw invalidRequest(`${param}: expected an https URL, e.g. https://example.com/seedance-callback`, { param });
  return value;
}
