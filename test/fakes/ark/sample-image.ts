/**
 * A real baseline JPEG: 8×8 pixels of flat light grey, one component, written by hand with
 * the standard luminance DC table and an AC table holding only end-of-block (173 bytes).
 * Seedream answers in JPEG by default, so the fake's images are this file.
 */
export const sampleJpegBase64 =
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAAIAAgBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQAAPwD/AEgP/9k=';

/** {@link sampleJpegBase64} as bytes. */
export const sampleJpeg = Buffer.from(sampleJpegBase64, 'base64');
