/** What a media reference holds. */
export type MediaKind = 'image' | 'audio' | 'video';

/** The image types a family takes inline, read from the bytes, and their names for a refusal. */
export interface InlineImageTypes {
  types: readonly string[];
  /** `JPEG, PNG or WebP`. */
  names: string;
}

/** What a family takes for one kind of media (spec part 2, media limits). */
export type MediaFormat = {
  /** The extensions accepted, named in the refusal of another. */
  extensions: readonly string[];
  /**
   * Extensions of other media formats: a URL ending in one is refused. Only these are: a
   * URL ending in .php may well serve an image, and signed links often have no extension.
   */
  refusedExtensions: ReadonlySet<string>;
} & ({ kind: 'image'; inline: InlineImageTypes } | { kind: 'audio' | 'video' });
