// The client-facing answer of the vendor-G image models on /v1/images/generations and
// /v1/images/edits (spec part 2, "Image generation response (vendor-G flat family)").

/** One generated image. */
export interface GxImagesDatum {
  /** Base64 image, no `data:` prefix. */
  b64_json: string;
  /** Always an empty string: the family answers inline only. */
  url: '';
  /** The model's text about the image; on `data[0]` only, with `response_modalities: image-text`. */
  revised_prompt?: string;
}

/** `usage`: token counts from the upstream's `usageMetadata`. All integers. */
export interface GxImagesUsage {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_tokens_details: { text_tokens: number; image_tokens: number };
  output_tokens_details: { image_tokens: number; text_tokens: number };
}

/** The whole answer. */
export interface GxImagesResponse {
  /** Unix seconds. */
  created: number;
  data: GxImagesDatum[];
  /** A copy of `data[0].revised_prompt`, present with it. */
  metadata?: { text: string };
  usage: GxImagesUsage;
}
