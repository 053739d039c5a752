import { RichSendBody, SendMessageBody, TemplateDto, TemplateLanguageDto, isBusinessScopedUserId, isE164, validationProblem, type FieldError } from '@parley/contracts';
import { ProblemException, validateDto } from '@parley/service-kit';
import { isIn, isObject, length, matches } from 'class-validator';
import { isRichSend, parseRichSendBody, withoutTextType } from './rich-send';

const EXACTLY_ONE = 'send exactly one of message (text) or template';

/**
 * Validates a `POST /v1/send` body (CONTRACT.md §4; a `type` other than text: §13, see rich-send.ts). On top of the field rules of `SendMessageBody`, exactly one of
 * `message` and `template` must be present; every broken rule is reported at once, naming its field.
 */
export async function parseSendBody(raw: unknown): Promise<SendMessageBody | RichSendBody> {
  if (isRichSend(raw)) return parseRichSendBody(raw);
  const text = withoutTextType(raw);
  return acceptedSendBody(text) ?? validatedSendBody(text);
}

/** The full check with class-validator: every broken rule named, each with its field. */
export async function validatedSendBody(raw: unknown): Promise<SendMessageBody> {
  const exclusivity = [...exclusivityErrors(raw), ...channelErrors(raw)];
  let fieldErrors: FieldError[] = [];
  let body: SendMessageBody | undefined;
  try {
    body = await validateDto(SendMessageBody, raw);
  } catch (err) {
    if (!(err instanceof ProblemException) || !err.problem.errors) throw err;
    fieldErrors = err.problem.errors;
  }
  // With neither given, the DTO's own complaint about a missing `message` says less than ours.
  const neither = exclusivity.length > 0 && !hasField(raw, 'message');
  const errors = [...exclusivity, ...fieldErrors.filter((e) => !(neither && e.field === 'message'))];
  if (errors.length > 0 || !body) throw new ProblemException(validationProblem(errors));
  return body;
}

function exclusivityErrors(raw: unknown): FieldError[] {
  const message = hasField(raw, 'message');
  const template = hasField(raw, 'template');
  if (message !== template) return [];
  const detail = message ? `${EXACTLY_ONE}, not both` : `${EXACTLY_ONE}; neither was given`;
  return [
    { field: 'message', message: detail },
    { field: 'template', message: detail },
  ];
}

/** SMS at most 1600 characters (the provider splits it into segments); templates only on WhatsApp; subject and html only on email (CONTRACT.md §17). */
export const SMS_MAX_CHARS = 1600;
function channelErrors(raw: unknown): FieldError[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const { channel, message } = raw as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (channel === 'sms' && typeof message === 'string' && message.length > SMS_MAX_CHARS) errors.push({ field: 'message', message: `message must be at most ${SMS_MAX_CHARS} characters on the sms channel` });
  if (channel !== 'whatsapp' && hasField(raw, 'template') && (channel === 'sms' || channel === 'email')) errors.push({ field: 'template', message: 'templates are sent on the whatsapp channel only; send message instead' });
  if (channel !== 'email') {
    for (const field of ['subject', 'html']) if (hasField(raw, field)) errors.push({ field, message: `${field} is only allowed on the email channel` });
  }
  return errors;
}

function hasField(raw: unknown, field: string): boolean {
  return typeof raw === 'object' && raw !== null && (raw as Record<string, unknown>)[field] !== undefined;
}

const SEND_FIELDS = new Set(['channel', 'to', 'message', 'template', 'from']);
const TEMPLATE_FIELDS = new Set(['name', 'language', 'components']);
const LANGUAGE_FIELDS = new Set(['code', 'policy']);
// The patterns and rules of SendMessageBody, TemplateDto and TemplateLanguageDto (libs/contracts/src/dto/send.dto.ts).
const LANGUAGE_CODE = /^[a-z]{2,3}(_[A-Z]{2})?$/;
const TEMPLATE_NAME = /^[a-z0-9_]{1,512}$/;

/**
 * The fast path: a body that plainly keeps every rule of `SendMessageBody` (the usual case) becomes the same
 * instances class-transformer would build, without class-validator's per-request cost (the largest part of a send's
 * validation in the profile). It only ever accepts: anything unusual (a broken rule, an unknown or null field, a
 * `tenant_id` left over) returns undefined and takes the full check, which names the errors. It uses class-validator's
 * own rule functions, so it cannot accept what the decorators refuse.
 */
export function acceptedSendBody(raw: unknown): SendMessageBody | undefined {
  if (!isPlainObject(raw) || !onlyFields(raw, SEND_FIELDS)) return undefined;
  const { channel, to, message, template, from } = raw;
  // Only WhatsApp takes the fast path; SMS and email have rules of their own (channelErrors).
  if (channel !== 'whatsapp') return undefined;
  if (!(isE164(to) || isBusinessScopedUserId(to))) return undefined;
  if (from !== undefined && !isE164(from)) return undefined;
  const body = new SendMessageBody();
  body.channel = channel as SendMessageBody['channel'];
  body.to = to as string;
  if (message !== undefined) {
    if (template !== undefined || typeof message !== 'string' || !length(message, 1, 4096)) return undefined;
    body.message = message;
  } else {
    const accepted = acceptedTemplate(template);
    if (!accepted) return undefined;
    body.template = accepted;
  }
  if (from !== undefined) body.from = from as string;
  return body;
}

function acceptedTemplate(raw: unknown): TemplateDto | undefined {
  if (!isPlainObject(raw) || !onlyFields(raw, TEMPLATE_FIELDS)) return undefined;
  const { name, language, components } = raw;
  if (typeof name !== 'string' || !matches(name, TEMPLATE_NAME)) return undefined;
  if (components !== undefined && !Array.isArray(components)) return undefined;
  if (!isPlainObject(language) || !onlyFields(language, LANGUAGE_FIELDS)) return undefined;
  const { code, policy } = language;
  if (typeof code !== 'string' || !matches(code, LANGUAGE_CODE)) return undefined;
  if (policy !== undefined && !isIn(policy, ['deterministic'])) return undefined;
  const template = new TemplateDto();
  template.name = name;
  template.language = new TemplateLanguageDto();
  template.language.code = code;
  if (policy !== undefined) template.language.policy = policy as string;
  // JSON data, as class-transformer's copy of it would be.
  if (components !== undefined) template.components = components as unknown[];
  return template;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return isObject(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Every own field is one of `allowed` and none is null (class-validator lets an optional null through; the full check decides). */
function onlyFields(value: Record<string, unknown>, allowed: Set<string>): boolean {
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key) || !allowed.has(key) || value[key] === null) return false;
  }
  return true;
}
