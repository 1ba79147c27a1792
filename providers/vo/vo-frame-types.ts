/** The frame formats the family takes for `image` and `lastFrame`, as their bytes show them. */
export const voFrameTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

/** The types a frame's bytes are told as: {@link voFrameTypes}, plus gif so a refusal can name it. */
export const voSniffedTypes: readonly string[] = [...voFrameTypes, 'image/gif'];

/** Bytes enough for every signature of {@link voSniffedTypes} (WebP's `RIFF....WEBP`). */
export const voSniffBytes = 12;
