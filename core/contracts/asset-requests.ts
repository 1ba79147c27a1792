import { z } from 'zod';

// The Seedance-style 2.0 asset library (spec part 2, "Asset library" and "Seedance-style 2.0
// endpoints"). The spec shows no bodies, so these are the gateway's own: strict on the way
// in, and one record shape per kind of object on the way out.

/** What an asset holds; it decides whether `asset://<id>` is an `image_url`, `video_url` or `audio_url` reference. */
export const assetTypes = ['image', 'video', 'audio'] as const;
export type AssetType = (typeof assetTypes)[number];

/** `aigc`: a virtual group made by the API; `liveness_face`: a real person's group, made by a passed face validation. */
export type AssetGroupType = 'aigc' | 'liveness_face';

/** `active` means usable; creation takes usually 1 to 3 minutes. */
export type AssetStatus = 'processing' | 'active' | 'failed';

/** `POST /v1/asset-groups`: only `aigc` groups are made this way (a `liveness_face` group comes from `/v1/visual-validate/session`). */
export const assetGroupCreateRequestSchema = z.strictObject({
  name: z.string({ error: 'expected a name' }).trim().min(1, { error: 'must not be empty' }).max(64, { error: 'at most 64 characters' }),
  description: z.string({ error: 'expected text' }).max(300, { error: 'at most 300 characters' }).optional(),
  group_type: z.literal('aigc', { error: 'only aigc groups are created here; a liveness_face group comes from POST /v1/visual-validate/session' }).optional(),
});

export type AssetGroupCreateRequest = z.output<typeof assetGroupCreateRequestSchema>;

/** `POST /v1/assets`: an asset from a public https URL (no base64, no data URIs). */
export const assetCreateRequestSchema = z.strictObject({
  group_id: z.string({ error: 'expected the id of one of your asset groups' }).min(1, { error: 'must not be empty' }),
  url: z
    .string({ error: 'expected a public https URL' })
    .refine((value) => !value.startsWith('data:'), { error: 'data URIs are not accepted; upload the file somewhere public and pass its https URL' })
    .refine((value) => /^https:\/\/[^/\s]+/i.test(value) && URL.canParse(value), { error: 'expected a public https URL (no base64, no data URIs)' }),
  asset_type: z.enum(assetTypes, { error: 'expected image, video or audio' }),
  name: z.string({ error: 'expected a name' }).max(64, { error: 'at most 64 characters' }).optional(),
});

export type AssetCreateRequest = z.output<typeof assetCreateRequestSchema>;

/** `POST /v1/visual-validate/session`. */
export const validationSessionRequestSchema = z.strictObject({});

/** What `assets.createGroup` is asked: the group to make. */
export type AssetGroupCreation = AssetGroupCreateRequest;

/** What `assets.deleteGroup` is asked about. */
export interface AssetGroupQuery {
  group_id: string;
}

/** What `assets.get` and `assets.delete` are asked about. */
export interface AssetQuery {
  asset_id: string;
}

/** What `assets.createValidationSession` is asked: where the validation page reports back. */
export interface ValidationSessionCreation {
  /** The gateway's own `POST /v1/visual-validate/result` address. */
  callback_url: string;
}

/** What `assets.getValidationResult` is asked about: the session's token. */
export interface ValidationResultQuery {
  byted_token: string;
}

/** An asset group as a provider reports it (the body of `assets.createGroup`'s JSON result). */
export interface AssetGroupRecord {
  id: string;
  name: string;
  description?: string;
  group_type: AssetGroupType;
}

/** An asset as a provider reports it (`assets.create`, `assets.get`). */
export interface AssetRecord {
  /** The virtual id, used as `asset://<id>`. */
  id: string;
  group_id: string;
  asset_type: AssetType;
  url: string;
  name?: string;
  status: AssetStatus;
}

/** A face validation session (`assets.createValidationSession`). */
export interface ValidationSessionRecord {
  /** The session's token; the validation page reports it back. */
  byted_token: string;
  /** The page the person opens to validate their face. */
  h5_link: string;
}

/** A passed face validation (`assets.getValidationResult`): the `liveness_face` group it made. */
export interface ValidationResultRecord {
  group_id: string;
}
