/** One ready-to-paste request the demo prints. */
export interface DemoCommand {
  /** What the request shows, printed as a shell comment above it. */
  title: string;
  /** A single-line curl command; every argument is single-quoted, so it pastes into any POSIX shell. */
  command: string;
}

/** A group of commands under a heading, with notes printed as shell comments before them. */
export interface DemoSection {
  heading: string;
  notes: string[];
  commands: DemoCommand[];
}

/** A video task the demo shows: the family it stands for and the body of its submit. */
export interface DemoVideoRequest {
  family: string;
  body: Record<string, unknown> & { model: string };
}

/**
 * One text-to-video submit per video family (docs/video-tasks.md). The demo submits each once
 * at start, so its poll line can carry a real task id.
 */
export const demoVideoRequests: readonly DemoVideoRequest[] = [
  { family: 'sr', body: { model: 'sr-2', prompt: 'a paper boat drifting down a rainy street', seconds: 4, size: '1280x720' } },
  { family: 'vo', body: { model: 'vo-3.0-fast-generate-001', prompt: 'a hummingbird over a red flower', durationSeconds: 8 } },
  { family: 'wn (2.5)', body: { model: 'wn2.5-t2v-preview', prompt: 'a kitten running in moonlight', duration: 5 } },
  {
    family: 'wn (2.7)',
    body: { model: 'wn2.7-t2v-2026-04-25', metadata: { input: { prompt: 'a kite over a windy beach' }, parameters: { resolution: '720P', duration: 5 } } },
  },
  { family: 'hx', body: { model: 'hx-1.0-t2v', metadata: { input: { prompt: 'a horse galloping at dawn' }, parameters: { duration: 5 } } } },
  { family: 'dsx', body: { model: 'dsx-1-0-pro-250528', prompt: 'a red fox trotting through fresh snow --rs 720p --dur 5' } },
  { family: 'sdx', body: { model: 'sdx-2-0', prompt: 'a lantern floating up into the night sky', duration: 5, resolution: '720p' } },
];

/** What the commands are built from. */
export interface DemoCommandContext {
  /** The gateway's address, no trailing slash. */
  baseUrl: string;
  apiKey: string;
  /** The demo user's login token, for the management API. */
  loginToken: string;
  /** A WAV file on this machine for the transcription line. */
  sampleAudio: string;
  /** The task id the demo's own submit of each of {@link demoVideoRequests} answered, in order. */
  videoTaskIds: readonly string[];
  /** An asset group the demo made at start, for the create-asset line. */
  assetGroupId: string;
  /** `tasks.min_poll_interval_ms` of the demo's config: polls closer than this get the cached state. */
  minPollIntervalMs: number;
}

/** Single-quotes `text` for a POSIX shell (a quote inside becomes '\''). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

interface CurlRequest {
  url: string;
  headers: string[];
  /** A JSON body: the request is a POST. */
  json?: unknown;
  /** Multipart fields (`name=value`, `name=@path` for a file): the request is a POST. */
  form?: string[];
  /** Print events as they arrive (`-N`). */
  stream?: boolean;
  /** Write the body to this file and print the response headers instead. */
  saveTo?: string;
}

function curl(request: CurlRequest): string {
  const parts = ['curl', request.stream === true ? '-sN' : '-s'];
  if (request.saveTo !== undefined) parts.push('-D', '-', '-o', shellQuote(request.saveTo));
  parts.push(shellQuote(request.url));
  for (const header of request.headers) parts.push('-H', shellQuote(header));
  if (request.json !== undefined) parts.push('-H', shellQuote('content-type: application/json'), '-d', shellQuote(JSON.stringify(request.json)));
  for (const field of request.form ?? []) parts.push('-F', shellQuote(field));
  return parts.join(' ');
}

/**
 * The requests the demo suggests, against a gateway at `baseUrl`, in sections: the OpenAI-style
 * routes with a Bearer key, the native gx routes with `x-gx-api-key`, images and video for every
 * family, the asset library and the management API (with the login token).
 */
export function demoSections(context: DemoCommandContext): DemoSection[] {
  const { baseUrl } = context;
  const bearer = `Authorization: Bearer ${context.apiKey}`;
  const nativeKey = `x-gx-api-key: ${context.apiKey}`;
  const post = (path: string, json: unknown, fields: Partial<CurlRequest> = {}) => curl({ url: `${baseUrl}${path}`, headers: [bearer], json, ...fields });
  const get = (path: string, headers = [bearer]) => curl({ url: `${baseUrl}${path}`, headers });
  const messages = [{ role: 'user', content: 'Hello, gateway!' }];
  const contents = [{ role: 'user', parts: [{ text: 'Hello, gateway!' }] }];

  const images: Array<{ family: string; body: Record<string, unknown> }> = [
    { family: 'gx (native generateContent underneath; answers b64_json)', body: { model: 'gx-2.5-flash-image', prompt: 'a lighthouse at dusk' } },
    { family: 'gi (answers b64_json)', body: { model: 'gi-2', prompt: 'a lighthouse at dusk', size: '1024x1024', quality: 'low' } },
    { family: 'dsr (Seedream; answers a URL)', body: { model: 'dsr-4-0-250828', prompt: 'a lighthouse at dusk', response_format: 'url' } },
    { family: 'qi (answers a URL)', body: { model: 'qi-plus', prompt: 'a lighthouse at dusk' } },
  ];

  return [
    {
      heading: 'models and chat',
      notes: [],
      commands: [
        { title: 'models this key may call', command: get('/v1/models') },
        { title: 'chat completion (OpenAI format, translated to gx)', command: post('/v1/chat/completions', { model: 'gx-2.5-pro', messages }) },
        {
          title: 'streamed chat completion, with usage in the last chunk',
          command: post('/v1/chat/completions', { model: 'gx-2.5-pro', messages, stream: true, stream_options: { include_usage: true } }, { stream: true }),
        },
        { title: 'chat completion on a gp model (passed through to the OpenAI-style upstream)', command: post('/v1/chat/completions', { model: 'gp-5.4', messages }) },
        { title: 'Responses (gp)', command: post('/v1/responses', { model: 'gp-5.4', input: 'Hello, gateway!' }) },
      ],
    },
    {
      heading: 'native gx routes (the gx key header, bodies forwarded byte for byte)',
      notes: [],
      commands: [
        { title: 'generateContent', command: curl({ url: `${baseUrl}/v1beta/models/gx-2.5-pro:generateContent`, headers: [nativeKey], json: { contents } }) },
        {
          title: 'streamGenerateContent as server-sent events',
          command: curl({ url: `${baseUrl}/v1beta/models/gx-2.5-pro:streamGenerateContent?alt=sse`, headers: [nativeKey], json: { contents }, stream: true }),
        },
        {
          title: 'embedContent',
          command: curl({ url: `${baseUrl}/v1beta/models/text-embedding-004:embedContent`, headers: [nativeKey], json: { content: { parts: [{ text: 'Hello, gateway!' }] } } }),
        },
      ],
    },
    {
      heading: 'audio',
      notes: [],
      commands: [
        {
          title: 'speech: prints the response headers and writes the audio to speech.mp3 in the current directory',
          command: post('/v1/audio/speech', { model: 'tts-1', input: 'Hello, gateway!', voice: 'alloy' }, { saveTo: 'speech.mp3' }),
        },
        {
          title: 'transcription of the sample WAV the demo wrote',
          command: curl({ url: `${baseUrl}/v1/audio/transcriptions`, headers: [bearer], form: [`file=@${context.sampleAudio}`, 'model=stt-1'] }),
        },
      ],
    },
    {
      heading: 'images, one per family',
      notes: [],
      commands: images.map(({ family, body }) => ({ title: family, command: post('/v1/images/generations', body) })),
    },
    {
      heading: 'video tasks: a submit and a poll per family',
      notes: [
        'Each poll line asks about a task the demo submitted at start with the submit line above it;',
        'repeat it to watch the task move on (queued, in_progress, then succeeded, or completed for',
        `sdx; the upstream is asked at most every ${context.minPollIntervalMs / 1000} s). A finished task shows the video's url (a`,
        '/content url on the gateway wants the same Authorization header). To poll a task you',
        'submitted, put the task_id its submit answered in place of the id in the poll line.',
      ],
      commands: demoVideoRequests.flatMap(({ family, body }, index) => [
        { title: `${family}: submit ${body.model}`, command: post('/v1/video/generations', body) },
        { title: `${family}: poll`, command: get(`/v1/video/generations/${encodeURIComponent(context.videoTaskIds[index] as string)}`) },
      ]),
    },
    {
      heading: 'the asset library (Seedance-style 2.0, on the dsx channel)',
      notes: [],
      commands: [
        { title: 'create an asset group', command: post('/v1/asset-groups', { name: 'my-cast', description: 'the people of the ad' }) },
        {
          title: 'add an asset to the group the demo made (the upstream fetches the URL; poll GET /v1/assets/{id} until active)',
          command: post('/v1/assets', { group_id: context.assetGroupId, url: 'https://media.example.com/fox.png', asset_type: 'image', name: 'fox' }),
        },
        { title: 'list your assets', command: get('/v1/assets') },
      ],
    },
    {
      heading: 'management API (the demo user’s login token)',
      notes: [],
      commands: [{ title: "the token's quota and usage", command: get('/api/token/', [`Authorization: Bearer ${context.loginToken}`]) }],
    },
  ];
}
