/** A real 2×2 RGB PNG (valid chunk CRCs): what the fake serves for every generated image by default. */
export const samplePngBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4n8XA0HEGhIEsACbKBXsQxtCmAAAAAElFTkSuQmCC';

export const samplePng: Uint8Array = Buffer.from(samplePngBase64, 'base64');
