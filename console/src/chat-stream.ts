// Reads a chat completion from the gateway's `/v1/chat/completions`, streamed or not.

/** The usage a chat completion reports. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
}

/** What came back: the answer, its usage, and the gateway's request id. */
export interface ChatOutcome {
  text: string;
  usage: ChatUsage | undefined;
}

/** An OpenAI-shaped error body's message, or a sentence with the status. */
async function errorMessage(response: Response): Promise<string> {
  const body = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
  return body?.error?.message ?? `the gateway answered ${response.status} ${response.statusText}`;
}

/**
 * The `data:` payloads of a server-sent event stream as they arrive. The gateway writes one
 * line per `data:` field and a blank line after each event; comments (`: ping`) are skipped.
 */
async function* eventData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    const lines = pending.split(/\r\n|\r|\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('data:')) yield line.slice(line.startsWith('data: ') ? 6 : 5);
  }
  if (pending.startsWith('data:')) yield pending.slice(5).trimStart();
}

interface Chunk {
  choices?: { delta?: { content?: string | null }; message?: { content?: string | null } }[];
  usage?: ChatUsage | null;
  error?: { message?: string };
}

/**
 * Sends one chat completion with an API key and the console's own request id, calling
 * `onText` with the answer so far as it streams. Throws with the gateway's message on an
 * error answer or an error event in the stream.
 */
export async function sendChat(options: { apiKey: string; requestId: string; body: Record<string, unknown>; stream: boolean; onText: (text: string) => void; signal?: AbortSignal }): Promise<ChatOutcome> {
  const response = await fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', 'x-request-id': options.requestId },
    body: JSON.stringify(options.stream ? { ...options.body, stream: true, stream_options: { include_usage: true } } : options.body),
    signal: options.signal,
  });
  if (!response.ok) throw new Error(await errorMessage(response));
  if (!options.stream || response.body === null) {
    const answer = (await response.json()) as Chunk;
    const text = answer.choices?.[0]?.message?.content ?? '';
    options.onText(text);
    return { text, usage: answer.usage ?? undefined };
  }
  let text = '';
  let usage: ChatUsage | undefined;
  for await (const data of eventData(response.body)) {
    if (data.trim() === '[DONE]') break;
    const chunk = JSON.parse(data) as Chunk;
    if (chunk.error !== undefined) throw new Error(chunk.error.message ?? 'the stream ended with an error');
    const delta = chunk.choices?.[0]?.delta?.content;
    if (typeof delta === 'string' && delta !== '') {
      text += delta;
      options.onText(text);
    }
    if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage;
  }
  return { text, usage };
}

/** A request id of the console's own (`console-` and 32 hex digits), known before the answer comes. */
export function newRequestId(): string {
  // crypto.randomUUID exists only in secure contexts; a gateway may be reached over plain http.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `console-${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
