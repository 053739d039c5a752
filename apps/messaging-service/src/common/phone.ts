const PHONE_LIKE = /^\+?[\d\s().-]{5,}$/;

/**
 * A phone number as stored and compared: E.164, `+` and digits only. Anything that does not look like a number
 * (a business-scoped user id such as `US.1349…`) is returned as it is.
 */
export function normalisePhone(value: string): string {
  const trimmed = value.trim();
  return PHONE_LIKE.test(trimmed) ? `+${trimmed.replace(/\D/g, '')}` : trimmed;
}

/** A channel address as stored and compared: an email address in lower case, anything else as normalisePhone does. */
export function normaliseAddress(value: string): string {
  const trimmed = value.trim();
  return trimmed.includes('@') ? trimmed.toLowerCase() : normalisePhone(trimmed);
}
