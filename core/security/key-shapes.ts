// The gateway's own API keys (sk-) and login tokens (mgu_), OpenAI-style vendor keys
// (sk-proj-…, sk-ant-…) and Google-style ones (AIza…), as channel keys look.
const keyShapes = /\bsk-[0-9A-Za-z_-]{8,}|\bmgu_[0-9A-Za-z]{8,}|\bAIza[0-9A-Za-z_-]{20,}/g;
const queryKey = /([?&](?:key|api_key)=)[^&#]*/gi;
// In a serialized log line a `key=` value ends at the JSON string's end too.
const queryKeyInJson = /([?&](?:key|api_key)=)[^&#"\\\s]*/gi;

/** Hides anything shaped like an API key or login token, and `key=` query values, in free text. */
export function redactSecrets(text: string): string {
  return text.replace(queryKey, '$1[redacted]').replace(keyShapes, '[redacted]');
}

/** {@link redactSecrets} for text inside a JSON document: a `key=` value stops at a quote or a backslash. */
export function redactSecretsInJson(text: string): string {
  return text.replace(queryKeyInJson, '$1[redacted]').replace(keyShapes, '[redacted]');
}

/** Whether `text` holds something shaped like an API key or login token. */
export function containsSecret(text: string): boolean {
  keyShapes.lastIndex = 0;
  return keyShapes.test(text);
}
