/**
 * The MIME types the chat endpoint accepts as inline media for gx models (spec part 1,
 * "POST /v1/chat/completions"), lower case. Pass it to `MediaFetcher.fetch` as
 * `allowedMimeTypes` so a refused download fails before its bytes are read.
 */
export const gxAllowedMimeTypes: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/webp',
  'image/heic',
  'image/heif',
  'audio/mpeg',
  'audio/mp3',
  'audio/wav',
  'video/mp4',
  'video/mov',
  'video/mpeg',
  'video/mpg',
  'video/avi',
  'video/wmv',
  'video/mpegps',
  'video/flv',
  'application/pdf',
  'text/plain',
];

const allowed = new Set(gxAllowedMimeTypes);

const extensionMimeTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  mp3: 'audio/mp3',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  mov: 'video/mov',
  mpeg: 'video/mpeg',
  mpg: 'video/mpg',
  avi: 'video/avi',
  wmv: 'video/wmv',
  flv: 'video/flv',
  pdf: 'application/pdf',
  txt: 'text/plain',
};

/**
 * The MIME type as the upstream gets it, or undefined when the spec's allowlist refuses it.
 * Parameters (`; charset=utf-8`) and case are dropped; `image/jpg`, accepted from clients,
 * goes out as the registered `image/jpeg`.
 */
export function normalizeGxMimeType(mimeType: string): string | undefined {
  const bare = (mimeType.split(';')[0] ?? '').trim().toLowerCase();
  if (!allowed.has(bare)) return undefined;
  return bare === 'image/jpg' ? 'image/jpeg' : bare;
}

/** The MIME type a file name's extension stands for, among the allowed ones. */
export function mimeTypeFromFileName(fileName: string): string | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot === -1) return undefined;
  return extensionMimeTypes[fileName.slice(dot + 1).toLowerCase()];
}
