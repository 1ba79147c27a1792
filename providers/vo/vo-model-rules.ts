/**
 * Whether a vo model takes a last frame, from the model id the client asked for (spec part 2,
 * "Models and per-family fields"): `vo-3.1-fast-generate-preview` makes first-and-last-frame
 * videos, `vo-3.0-fast-generate-001` only first-frame ones. Ids that do not start with
 * `vo-3.1` are treated like 3.0: the last frame is refused rather than sent to an upstream
 * model that may not know it.
 */
export function voModelTakesLastFrame(model: string): boolean {
  return /^vo-3\.1(?![0-9])/.test(model);
}
