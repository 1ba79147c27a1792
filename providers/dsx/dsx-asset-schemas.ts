import { z } from 'zod';

// Lenient: the asset API's fields come from client implementations, not an official SDK
// (upstreams.md §3.5 [M]); only what the gateway reads is checked.

const text = z.string().nullish();

/** `ResponseMetadata.Error` of the OpenAPI envelope. */
export const volcErrorSchema = z.looseObject({ Code: text, Message: text });

/** The OpenAPI envelope: `{ResponseMetadata: {RequestId, Action, ..., Error?}, Result}`. */
export const volcEnvelopeSchema = z.looseObject({
  ResponseMetadata: z.looseObject({ RequestId: text, Error: volcErrorSchema.nullish() }).nullish(),
  Result: z.unknown().optional(),
});

/** An asset (`GetAsset`, `CreateAsset`). */
export const volcAssetSchema = z.looseObject({
  Id: z.string().min(1),
  Name: text,
  GroupId: text,
  AssetType: text,
  URL: text,
  Status: text,
});

/** What `CreateAssetGroup` and `GetVisualValidateResult` answer. */
export const volcIdSchema = z.looseObject({ Id: z.string().min(1) });
export const volcValidationResultSchema = z.looseObject({ GroupId: z.string().min(1) });

/** What `CreateVisualValidateSession` answers. */
export const volcValidationSessionSchema = z.looseObject({ BytedToken: z.string().min(1), H5Link: z.string().min(1) });
