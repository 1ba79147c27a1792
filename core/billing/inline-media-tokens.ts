/** What an inline payload holds, which decides the rule its tokens are counted by. */
export type InlineMediaKind = 'image' | 'audio' | 'pdf' | 'file';

/**
 * Tokens one inline image is estimated at, whatever its size: the largest per-image count
 * of the families' published rules. OpenAI's high detail (vision guide, "Calculating costs")
 * fits the image into 2048×2048, scales its short side to 768 and charges 85 + 170 per
 * 512-px tile, at most 8 tiles (768×2048): 85 + 8 × 170 = 1445. gx reports less per image:
 * 258 for a prompt image up to 384 px a side, and 1290 the most upstreams.md shows for one
 * image (§1.3 and §1.4, `candidatesTokensDetails` of fixture gemini-stream-image-output.json).
 */
export const tokensPerImage = 1445;

/**
 * Audio is counted by duration: gx represents each second of audio as 32 tokens (Gemini
 * audio-understanding docs; OpenAI's audio input counts fewer a second), and the duration
 * is read from the size at 16 kbit/s, the resolution gx downsamples audio to, so any audio
 * encoded at 16 kbit/s or more is estimated at least as long as it is.
 */
export const audioTokensPerSecond = 32;
/** Bytes of one second of audio at 16 kbit/s. */
export const audioBytesPerSecond = 2000;

/**
 * The most one PDF is estimated at: gx reads a document as at most 1000 pages of 258 tokens
 * each (Gemini document-understanding docs). Below it a PDF counts like any other file.
 */
export const maxPdfTokens = 1000 * 258;

/** Text's rate, used for files, whose content the gateway does not read. */
const bytesPerToken = 4;

/**
 * The kind of a payload with MIME type `mimeType` (any case, parameters allowed); `fallback`
 * when the type names no kind the rules know, such as `application/octet-stream` under an
 * `image_url`.
 */
export function inlineMediaKindOf(mimeType: string, fallback: InlineMediaKind): InlineMediaKind {
  const type = mimeType.trim().toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('application/pdf')) return 'pdf';
  return fallback;
}

/**
 * The input tokens an inline payload of `bytes` decoded bytes is estimated at: an image
 * {@link tokensPerImage}; audio {@link audioTokensPerSecond} a second, its duration at
 * {@link audioBytesPerSecond}; any other file (PDF, text, video) a quarter of its decoded
 * bytes, as text would count, a PDF at most {@link maxPdfTokens}.
 */
export function inlineMediaTokens(kind: InlineMediaKind, bytes: number): number {
  switch (kind) {
    case 'image':
      return tokensPerImage;
    case 'audio':
      return Math.ceil((bytes / audioBytesPerSecond) * audioTokensPerSecond);
    case 'pdf':
      return Math.min(Math.ceil(bytes / bytesPerToken), maxPdfTokens);
    case 'file':
      return Math.ceil(bytes / bytesPerToken);
  }
}
