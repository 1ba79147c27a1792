/** One ready-to-paste request the demo prints. */
export interface DemoCommand {
  /** What the request shows, printed as a shell comment above it. */
  title: string;
  /** A single-line curl command; every argument is single-quoted, so it pastes into any POSIX shell. */
  command: string;
}

/** Single-quotes `text` for a POSIX shell (a quote inside becomes '\''). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function curl(url: string, headers: string[], body?: unknown, stream = false): string {
  const parts = ['curl', stream ? '-sN' : '-s', shellQuote(url)];
  for (const header of headers) parts.push('-H', shellQuote(header));
  if (body !== undefined) parts.push('-H', shellQuote('content-type: application/json'), '-d', shellQuote(JSON.stringify(body)));
  return parts.join(' ');
}

/**
 * The requests the demo suggests, against a gateway at `baseUrl` (no trailing slash): the
 * OpenAI-style chat route with a Bearer key, and the native gx routes with `x-gx-api-key`.
 */
export function demoCommands(baseUrl: string, apiKey: string, loginToken: string): DemoCommand[] {
  const bearer = `Authorization: Bearer ${apiKey}`;
  const nativeKey = `x-gx-api-key: ${apiKey}`;
  const messages = [{ role: 'user', content: 'Hello, gateway!' }];
  const contents = [{ role: 'user', parts: [{ text: 'Hello, gateway!' }] }];
  return [
    { title: 'models this key may call', command: curl(`${baseUrl}/v1/models`, [bearer]) },
    {
      title: 'chat completion (OpenAI format, translated to gx)',
      command: curl(`${baseUrl}/v1/chat/completions`, [bearer], { model: 'gx-2.5-pro', messages }),
    },
    {
      title: 'streamed chat completion, with usage in the last chunk',
      command: curl(
        `${baseUrl}/v1/chat/completions`,
        [bearer],
        { model: 'gx-2.5-pro', messages, stream: true, stream_options: { include_usage: true } },
        true,
      ),
    },
    {
      title: 'native gx generateContent',
      command: curl(`${baseUrl}/v1beta/models/gx-2.5-pro:generateContent`, [nativeKey], { contents }),
    },
    {
      title: 'native gx streamGenerateContent as server-sent events',
      command: curl(`${baseUrl}/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse`, [nativeKey], { contents }, true),
    },
    {
      title: 'native gx embedContent',
      command: curl(`${baseUrl}/v1beta/models/text-embedding-004:embedContent`, [nativeKey], {
        content: { parts: [{ text: 'Hello, gateway!' }] },
      }),
    },
    {
      title: "the token's quota and usage (management API, with the demo user's login token)",
      command: curl(`${baseUrl}/api/token/`, [`Authorization: Bearer ${loginToken}`]),
    },
  ];
}
