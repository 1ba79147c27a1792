/** A run of text, or a markdown image `![alt](source)`, in the order they appear. */
export type MarkdownSegment = { kind: 'text'; text: string } | { kind: 'image'; source: string };

// Bounded alt text, and sources that cannot contain `[` or `]`, so every match attempt stops
// at the next `![`: the scan stays linear even on a hostile 30 MB message.
const dataImage = /!\[[^[\]\n]{0,512}\]\(\s*(data:[^\s()[\]]+)\s*\)/g;
const dataOrRemoteImage = /!\[[^[\]\n]{0,512}\]\(\s*(data:[^\s()[\]]+|https?:\/\/[^\s()[\]]+)\s*\)/g;

/**
 * Splits text at markdown images whose source is a data URI, or also an http(s) URL when
 * `includeRemote` is set. The text around the images is kept, the text after the last one
 * too (the reference gateway drops it, reference-gateway.md §4.6, losing what the client
 * wrote). Empty runs are left out.
 */
export function splitMarkdownImages(text: string, includeRemote: boolean): MarkdownSegment[] {
  if (!text.includes('![')) return text === '' ? [] : [{ kind: 'text', text }];
  const segments: MarkdownSegment[] = [];
  let position = 0;
  for (const match of text.matchAll(includeRemote ? dataOrRemoteImage : dataImage)) {
    const before = text.slice(position, match.index);
    if (before !== '') segments.push({ kind: 'text', text: before });
    segments.push({ kind: 'image', source: match[1] ?? '' });
    position = match.index + match[0].length;
  }
  const rest = text.slice(position);
  if (rest !== '') segments.push({ kind: 'text', text: rest });
  return segments;
}
