// What the fake refuses in a predictLongRunning body, with the field in backquotes as the
// upstream words such refusals ("`negativePrompt` isn't supported by this model."). The
// allowed values are those of upstreams.md §1.11; the parameters the Gemini API does not take
// for videos (the SDK refuses them before sending, same section) are refused too, so a test
// can tell that the gateway never sends them.

const allowed: Record<string, readonly unknown[]> = {
  aspectRatio: ['16:9', '9:16'],
  resolution: ['720p', '1080p', '4k'],
  durationSeconds: [4, 6, 8],
  sampleCount: [1, 2, 3, 4],
  personGeneration: ['allow_all', 'allow_adult', 'dont_allow'],
};
const otherParameters = new Set(['negativePrompt', 'enhancePrompt']);
const vertexOnly = new Set(['seed', 'fps', 'generateAudio', 'addWatermark', 'storageUri', 'pubsubTopic', 'compressionQuality', 'resizeMode', 'labels']);
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/webp']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkImage(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return `Invalid value at 'instances[0].${field}', expected an Image.`;
  if (value.gcsUri !== undefined) return `\`gcsUri\` isn't supported by this model.`;
  if (typeof value.bytesBase64Encoded !== 'string' || value.bytesBase64Encoded === '') return `\`${field}\` needs bytesBase64Encoded.`;
  if (typeof value.mimeType !== 'string' || !imageTypes.has(value.mimeType)) return `\`${field}\` has an unsupported mimeType.`;
  return undefined;
}

/** The 400 message for a body the fake refuses, or undefined for one it takes. */
export function veoSubmitProblem(body: unknown): string | undefined {
  if (!isObject(body)) return 'Invalid JSON payload received. Unexpected token.';
  const { instances, parameters = {} } = body;
  if (!Array.isArray(instances) || instances.length === 0) return '* PredictLongRunningRequest.instances: instances is not specified\n';
  const instance = instances[0];
  if (!isObject(instance)) return "Invalid value at 'instances[0]', expected an object.";
  if (typeof instance.prompt !== 'string' && instance.image === undefined) return '`prompt` is required.';
  const imageProblem = checkImage(instance.image, 'image') ?? checkImage(instance.lastFrame, 'lastFrame');
  if (imageProblem !== undefined) return imageProblem;
  if (instance.lastFrame !== undefined && instance.image === undefined) return '`lastFrame` needs `image`.';
  if (!isObject(parameters)) return "Invalid value at 'parameters', expected an object.";
  for (const [name, value] of Object.entries(parameters)) {
    if (vertexOnly.has(name)) return `\`${name}\` isn't supported by this model.`;
    const values = allowed[name];
    if (values !== undefined && !values.includes(value)) return `\`${name}\` must be one of ${values.join(', ')}.`;
    if (values === undefined && !otherParameters.has(name)) return `Invalid JSON payload received. Unknown name "${name}" at 'parameters': Cannot find field.`;
  }
  return undefined;
}
