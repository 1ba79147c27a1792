import { findUrlFields, type ProviderHost } from '../../core/index.js';

/**
 * Checks the `fileData.fileUri` URLs in a native body (the client's native request, or the
 * `extra_body.gx` a chat merges in) against the gateway's address policy before the call:
 * the upstream downloads them itself, so a URL at a loopback, private or metadata address
 * is refused with 400 naming its field (`contents[0].parts[1].fileData.fileUri`) unless
 * `security.media` allows it. `gs://` and Files API URIs are not http(s) and pass untouched.
 */
export async function checkGxFileUris(host: ProviderHost, body: unknown, root: string, signal: AbortSignal): Promise<void> {
  await host.media.checkVendorFetchedUrls(findUrlFields(body, (key) => key === 'fileUri', root), signal);
}
