/**
 * `model-gateway/kit`: the helpers any provider plugin may use, beside the contract of
 * `model-gateway` (`core/index.ts`). None of them knows a vendor: calling an upstream and
 * judging its errors, reading its JSON and its stream frames, checking a client's fields,
 * and reading or fetching media.
 */
export { quoted } from '../errors/client-text.js';
export { absent, isRecord, numberOrAbsent, ownEntry, stringOrAbsent } from '../validation/value-shapes.js';
export { readWithHandCheck, type SchemaRead } from '../validation/read-with-hand-check.js';
export { isBase64Text } from '../validation/base64-text.js';
export { booleanField, expectedOneOf, seedField, wholeNumberField } from '../validation/client-field-schemas.js';
export { fieldError, formatFieldPath, parseClientFields, type ClientFieldsOptions, type FieldPath } from '../validation/parse-client-input.js';
export { maxEmbeddedJsonDepth, parseEmbeddedJson } from '../validation/json-depth.js';
export { readFormFields, type FormFieldKinds } from '../validation/form-fields.js';
export { pathPrefixOption, pathPrefixOptions, type PathPrefixOptions } from '../validation/path-prefix-option.js';
export { matchesModelPattern } from '../routing/model-pattern.js';
export { stopAfterFirstError, streamFailure } from '../streaming/stop-after-first-error.js';
export { readJsonFrame, type JsonFrame } from '../streaming/read-json-frame.js';
export { sniffImageType } from '../media/sniff-image-type.js';
export { checkImageBytes, fetchableImageTypes, fetchImage, readImageSourceText, sniffBase64ImageType, type ImageFormats, type ImageSourceText } from '../media/image-source.js';
export { readDataUriBase64, type DataUriPayload } from '../http/data-uri.js';
export { OncePerRequest } from '../media/once-per-request.js';
export { appendUploadFile, imageUploadFile, type UploadFile } from '../media/upload-file.js';
export {
  describeUpstreamError,
  errorForUpstreamStatus,
  isChannelTrouble,
  readBodyExcerpt,
  retryAfterHeader,
  upstreamRefusal,
} from '../http/upstream-error.js';
export {
  createStatusErrorMapper,
  errorForUpstreamBody,
  upstreamStatusError,
  type UpstreamErrorDialect,
  type UpstreamStatusMapper,
} from '../http/upstream-error-dialect.js';
export {
  bearerAuthorization,
  callUpstream,
  headerValue,
  isSuccessStatus,
  jsonBody,
  multipartBody,
  prefixedUpstreamUrl,
  sendUpstream,
  type UpstreamCall,
  type UpstreamRequestBody,
} from '../http/call-upstream.js';
export { primeUpstreamBody } from '../http/prime-upstream-body.js';
export { videoContentResult } from '../http/video-content-result.js';
export { findUrlFields } from '../http/find-url-fields.js';
export { mediaErrorAboutField } from '../http/media-errors.js';
export { invalidUpstreamAnswer, parseUpstreamAnswer, parseUpstreamJson, readUpstreamAnswer, readUpstreamJsonAs, readUpstreamJsonBody } from '../http/upstream-json.js';
export { redactSecrets } from '../logging/create-logger.js';
