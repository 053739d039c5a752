import { randomBytes, randomInt } from 'node:crypto';

/** A WhatsApp message id: `wamid.` and an opaque base64url tail (Meta's are at most 128 characters). */
export function newWamid(): string {
  return `wamid.${randomBytes(24).toString('base64url')}`;
}

/** A numeric Graph object id of `digits` digits (phone number ids, WABA ids), never starting with 0. */
export function newGraphId(digits = 15): string {
  let id = String(randomInt(1, 10));
  while (id.length < digits) id += String(randomInt(0, 10));
  return id;
}

/** What Meta answers errors with so support can trace a call; opaque to clients. */
export function newFbtraceId(): string {
  return randomBytes(17).toString('base64url');
}

/** A business integration token as the code exchange hands out: `EAA…`, alphanumeric. */
export function newAccessToken(): string {
  return `EAA${randomBytes(48).toString('base64').replace(/[^A-Za-z0-9]/g, '')}`;
}

/** Digits only: how Cloud API payloads write numbers (`wa_id`, `from`, `display_phone_number` in metadata). */
export function digitsOf(phone: string): string {
  return phone.replace(/\D/g, '');
}
