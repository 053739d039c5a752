/**
 * Credentials recognisable by their shape: Parley API keys and client secrets, webhook signing secrets, and JWTs
 * (header and payload both start with `eyJ`, base64url of `{"`). A caller who pastes one into a URL must not find it
 * in our logs or echoed in an error's `instance`.
 */
const SECRET_SHAPES = /parley_(?:sk|cs)_[A-Za-z0-9_-]+|whsec_[A-Za-z0-9+/=_-]+|eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.?[A-Za-z0-9_-]*/g;

/** The text with every secret-shaped part replaced by `[redacted]`. */
export function redactSecretShapes(text: string): string {
  return text.replace(SECRET_SHAPES, '[redacted]');
}

/** A request URL fit for logs and problem `instance`s: no query string (tokens travel there), no secret-shaped part. */
export function loggableUrl(url: string | undefined): string {
  return redactSecretShapes((url ?? '').split('?')[0]);
}
