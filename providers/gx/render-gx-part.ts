import type { GxPart } from './gx-schemas.js';

/** Ends text that does not already end a line, so a fenced block starts on its own line. */
const lineBreakAfter = (precedingText: string): string => (precedingText === '' || precedingText.endsWith('\n') ? '' : '\n');

const withoutTrailingLineBreak = (text: string): string => (text.endsWith('\n') ? text.slice(0, -1) : text);

function fencedBlock(language: string, body: string, precedingText: string): string {
  return `${lineBreakAfter(precedingText)}\`\`\`${language}\n${withoutTrailingLineBreak(body)}\n\`\`\`\n`;
}

/** The code language as a fence tag: `PYTHON` → `python`; unknown → none. */
function fenceLanguage(language: string | null | undefined): string {
  const tag = (language ?? '').toLowerCase();
  return tag === '' || tag === 'language_unspecified' ? '' : tag;
}

/** True for an inline image part that is output, not a thought. */
export function isGxImagePart(part: GxPart): boolean {
  return part.thought !== true && (part.inlineData?.mimeType ?? '').toLowerCase().startsWith('image/');
}

/** True for an inline audio part that is output, not a thought. */
export function isGxAudioPart(part: GxPart): boolean {
  return part.thought !== true && (part.inlineData?.mimeType ?? '').toLowerCase().startsWith('audio/');
}

/**
 * The message text for one answer part (spec part 1, "Chat completion object";
 * reference-gateway.md §4.6): text as it is; `executableCode` as a fenced block tagged with
 * its language and `codeExecutionResult` as a fenced `output` block, each on its own lines;
 * an inline image as `![image](data:<mime>;base64,...)`, other inline media as
 * `[media](data:...)`; a file reference likewise with its URI. Thought parts and function
 * calls are not message text; they and empty parts give ''. `precedingText` is what the
 * message holds so far (only its end matters).
 */
export function renderGxPart(part: GxPart, precedingText: string): string {
  if (part.thought === true || part.functionCall !== undefined && part.functionCall !== null) return '';
  if (typeof part.text === 'string') return part.text;
  if (part.executableCode !== undefined && part.executableCode !== null) {
    return fencedBlock(fenceLanguage(part.executableCode.language), part.executableCode.code ?? '', precedingText);
  }
  if (part.codeExecutionResult !== undefined && part.codeExecutionResult !== null) {
    return fencedBlock('output', part.codeExecutionResult.output ?? '', precedingText);
  }
  if (part.inlineData !== undefined && part.inlineData !== null) {
    const mimeType = part.inlineData.mimeType ?? 'application/octet-stream';
    const uri = `data:${mimeType};base64,${part.inlineData.data ?? ''}`;
    return mimeType.toLowerCase().startsWith('image/') ? `![image](${uri})` : `[media](${uri})`;
  }
  if (part.fileData !== undefined && part.fileData !== null && typeof part.fileData.fileUri === 'string') {
    return (part.fileData.mimeType ?? '').toLowerCase().startsWith('image/') ? `![image](${part.fileData.fileUri})` : `[media](${part.fileData.fileUri})`;
  }
  return '';
}
