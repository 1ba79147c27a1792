/** The image types Q-style models take as input and return, lower case. */
export const qiImageMimeTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];
