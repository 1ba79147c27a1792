import { emptyUsage, type Usage } from '../../../core/index.js';
import { convertGxUsage, tallyGxProducedOutput } from '../convert-gx-usage.js';
import { gxGenerateContentResponseSchema } from '../gx-schemas.js';

/**
 * The usage of a native `generateContent` answer that is forwarded to the client as it is:
 * from its `usageMetadata`, with the inline images it carries counted. Zeros marked
 * `estimated` when the body has no usage or is not a generate response.
 */
export function readGxNativeUsage(json: unknown): Usage {
  const parsed = gxGenerateContentResponseSchema.safeParse(json);
  if (!parsed.success) return emptyUsage('estimated');
  const produced = tallyGxProducedOutput(parsed.data.candidates);
  const usageMetadata = parsed.data.usageMetadata;
  if (usageMetadata !== undefined && usageMetadata !== null) return convertGxUsage(usageMetadata, produced);
  const usage = emptyUsage('estimated');
  if (produced.images > 0) usage.images = produced.images;
  return usage;
}
