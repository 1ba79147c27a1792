const standardBase64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Whether `text` (white space already removed) is standard base64 that decodes whole: the
 * alphabet, at most two `=` at the end, and not a length that leaves one character over.
 * For image data a client sends bare, told apart from a URL before anything is decoded.
 */
export const isBase64Text = (text: string): boolean => standardBase64.test(text) && text.length % 4 !== 1;
