/** A file for an upstream's multipart form: its name, its type and its bytes. */
export interface UploadFile {
  filename: string;
  mimeType: string;
  data: Buffer;
}

/** Appends `file` to a multipart `form` as the file field `field`. */
export function appendUploadFile(form: FormData, field: string, file: UploadFile): void {
  form.append(field, new Blob([file.data], { type: file.mimeType }), file.filename);
}

// The usual extension of each image type `sniffImageType` tells.
const imageExtensions: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/tiff': 'tif',
  'image/bmp': 'bmp',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/heif': 'heif',
};

/**
 * An image as a file for an upstream's form: named as the client named it, else
 * `<stem>.<extension of its type>` (`image-1.png`), since upstreams read the type from the
 * name too.
 */
export function imageUploadFile(data: Buffer, mimeType: string, stem: string, filename = ''): UploadFile {
  return { filename: filename === '' ? `${stem}.${imageExtensions[mimeType] ?? 'bin'}` : filename, mimeType, data };
}
