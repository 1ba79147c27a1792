import { findUrlFields, type ProviderHost, type VendorFetchedUrl } from '../../core/index.js';

// Where an OpenAI-format upstream fetches what the client names: chat and Responses images
// (`image_url`, a string or `{url}`), Responses files (`file_url`) and remote MCP servers
// (`server_url`, which the upstream connects to).
const urlKeys = new Set(['image_url', 'file_url', 'server_url']);

/**
 * Checks the URLs a passed-through request hands the upstream to fetch, in `messages`
 * (chat) or `input` and `tools` (Responses), against the gateway's address policy before the
 * call; a refused one is a 400 naming its field (`messages[1].content[0].image_url.url`).
 * The rest of the body, `metadata` included, is the client's own text and is not judged.
 */
export async function checkGpUrls(host: ProviderHost, request: Record<string, unknown>, signal: AbortSignal): Promise<void> {
  const urls: VendorFetchedUrl[] = [];
  for (const section of ['messages', 'input', 'tools']) urls.push(...findUrlFields(request[section], (key) => urlKeys.has(key), section));
  await host.media.checkVendorFetchedUrls(urls, signal);
}
