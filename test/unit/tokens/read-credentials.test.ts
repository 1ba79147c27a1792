import t from 'tap';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { apiKeyHint, apiKeyPlaces, readApiKey, type CredentialSources } from '../../../core/tokens/read-credentials.js';

/** A request with these header lines (a repeated name is sent as that many lines) and query. */
const sent = (headers: Array<[string, string]>, query: Record<string, unknown> = {}): CredentialSources => ({ rawHeaders: headers.flat(), query });

const refusal = (read: () => unknown): GatewayError | undefined => {
  try {
    read();
    return undefined;
  } catch (error) {
    return error instanceof GatewayError ? error : undefined;
  }
};

t.test('the native surface reads the key from Authorization, x-gx-api-key, x-goog-api-key and ?key=', async (t) => {
  t.equal(readApiKey(sent([['Authorization', 'Bearer sk-one']]), apiKeyPlaces.native), 'sk-one');
  t.equal(readApiKey(sent([['x-gx-api-key', 'sk-one']]), apiKeyPlaces.native), 'sk-one');
  t.equal(readApiKey(sent([['X-Goog-Api-Key', 'sk-one']]), apiKeyPlaces.native), 'sk-one', 'the vendor header, in any case');
  t.equal(readApiKey(sent([], { key: 'sk-one' }), apiKeyPlaces.native), 'sk-one');
  t.equal(readApiKey(sent([['x-goog-api-key', '  ']]), apiKeyPlaces.native), undefined, 'a blank header is no key');
});

t.test('the Messages surface reads the key from Authorization and x-api-key, nothing else', async (t) => {
  t.equal(readApiKey(sent([['x-api-key', 'sk-one']]), apiKeyPlaces.messages), 'sk-one');
  t.equal(readApiKey(sent([['authorization', 'Bearer sk-one']]), apiKeyPlaces.messages), 'sk-one');
  t.equal(readApiKey(sent([['x-goog-api-key', 'sk-one'], ['x-gx-api-key', 'sk-one']], { key: 'sk-one' }), apiKeyPlaces.messages), undefined);
});

t.test('the OpenAI surface reads only Authorization: Bearer', async (t) => {
  t.equal(readApiKey(sent([['x-api-key', 'sk-one'], ['x-goog-api-key', 'sk-one'], ['x-gx-api-key', 'sk-one']], { key: 'sk-one' }), apiKeyPlaces.openai), undefined);
  t.equal(readApiKey(sent([['authorization', 'Bearer sk-one'], ['x-api-key', 'sk-two']]), apiKeyPlaces.openai), 'sk-one', 'a key in a header it does not read is no conflict');
});

t.test('two different keys in two places of a surface are refused with ambiguous_credentials naming both', async (t) => {
  const cases: Array<[string, CredentialSources, keyof typeof apiKeyPlaces, RegExp]> = [
    ['x-gx-api-key and x-goog-api-key', sent([['x-gx-api-key', 'sk-one'], ['x-goog-api-key', 'sk-two']]), 'native', /x-gx-api-key and x-goog-api-key/],
    ['Bearer and x-goog-api-key', sent([['authorization', 'Bearer sk-one'], ['x-goog-api-key', 'sk-two']]), 'native', /Authorization and x-goog-api-key/],
    ['x-goog-api-key and ?key=', sent([['x-goog-api-key', 'sk-one']], { key: 'sk-two' }), 'native', /x-goog-api-key and the key query parameter/],
    ['two x-goog-api-key lines', sent([['x-goog-api-key', 'sk-one'], ['x-goog-api-key', 'sk-two']]), 'native', /two x-goog-api-key values/],
    ['Bearer and x-api-key', sent([['authorization', 'Bearer sk-one'], ['x-api-key', 'sk-two']]), 'messages', /Authorization and x-api-key/],
    ['two x-api-key lines', sent([['x-api-key', 'sk-one'], ['x-api-key', 'sk-two']]), 'messages', /two x-api-key values/],
  ];
  for (const [what, request, surface, names] of cases) {
    const error = refusal(() => readApiKey(request, apiKeyPlaces[surface]));
    t.equal(error?.code, 'ambiguous_credentials', `${what}: ambiguous_credentials`);
    t.equal(error?.statusCode, 400, `${what}: 400`);
    t.match(error?.message, names, `${what}: the message names the places`);
  }
});

t.test('the same key in several places is one credential, with or without sk-', async (t) => {
  const everywhere = sent([['authorization', 'Bearer sk-one'], ['x-gx-api-key', 'one'], ['x-goog-api-key', 'sk-one']], { key: 'sk-one' });
  t.equal(readApiKey(everywhere, apiKeyPlaces.native), 'sk-one');
  t.equal(readApiKey(sent([['x-api-key', 'one'], ['authorization', 'Bearer sk-one']]), apiKeyPlaces.messages), 'sk-one');
});

t.test('the hint of a missing key lists the places of the surface', async (t) => {
  t.equal(apiKeyHint(apiKeyPlaces.openai), 'Authorization: Bearer sk-...');
  t.equal(apiKeyHint(apiKeyPlaces.native), 'Authorization: Bearer sk-..., x-gx-api-key, x-goog-api-key or ?key=');
  t.equal(apiKeyHint(apiKeyPlaces.messages), 'Authorization: Bearer sk-... or x-api-key');
});
