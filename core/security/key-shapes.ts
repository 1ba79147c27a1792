// The gateway's own API keys (sk-) and login tokens (mgu_), OpenAI-style vendor keys
// (sk-proj-…, sk-ant-…) and Google-style ones (AIza…), as channel keys look.
const keyShapes = /\bsk-[0-9A-Za-z_-]{8,}|\bmgu_[0-9A-Za-z]{8,}|\bAIza[0-9A-Za-z_-]{20,}/g;
// A key in a URL never holds whitespace or quotes, so the value ends there: the rest of a
// message after a URL is kept.
const queryKey = /([?&](?:key|api_key)=)[^&#\s"'<>]+/gi;
// In a serialized log line a `key=` value ends at the JSON string's end too.
const queryKeyInJson = /([?&](?:key|api_key)=)[^&#"\\\s]*/gi;

/** Hides anything shaped like an API key or login token, and `key=` query values, in free text. */
export function redactSecrets(text: string): string {
  return text.replace(queryKey, '$1[redacted]').replace(keyShapes, '[redacted]');
}

// What every key shape and `key=` query starts with: a line without any is passed as it is.
const keyShapeStarts = /sk-|mgu_|AIza|key=/i;

/**
 * {@link redactSecrets} for text inside a JSON document (a whole log line): a `key=` value
 * stops at a quote or a backslash. Most lines hold no key shape's start, and are returned
 * after one quick scan.
 */
export function redactSecretsInJson(text: string): string {
  if (!keyShapeStarts.test(text)) return text;
  return text.replace(queryKeyInJson, '$1[redacted]').replace(keyShapes, '[redacted]');
}

/** Whether `text` holds something shaped like an API key or login token. */
export function containsSecret(text: string): boolean {
  keyShapes.lastIndex = 0;
  return keyShapes.test(text);
}
