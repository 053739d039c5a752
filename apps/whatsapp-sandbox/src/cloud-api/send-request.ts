import { isE164 } from '@parley/contracts';
import { GraphErrors } from './graph-error';
import { digitsOf } from './ids';
import { MEDIA_MESSAGE_TYPES, parseRichContent, type RichType } from './rich-content';

export const TEXT_MAX_CHARS = 4096;
const OPAQUE_MAX_CHARS = 512;

export interface TemplateContent {
  name: string;
  language: { code: string; policy?: string };
  components?: unknown[];
}

interface Common {
  /** The recipient as the caller wrote it (echoed back as `contacts[].input`). */
  input: string;
  /** The recipient in E.164 with its `+`. */
  to: string;
  contextMessageId: string | null;
  bizOpaqueCallbackData: string | null;
}

export type SendMessage = Common &
  (
    | { type: 'text'; body: string; previewUrl: boolean }
    | { type: 'template'; template: TemplateContent }
    /** Media, location and interactive messages: `content` is the type's object as sent (e.g. `image: {id, caption}`). */
    | { type: RichType; content: Record<string, unknown> }
  );

/** A validated body of `POST /{version}/{phone_number_id}/messages`: a message to send, or a read receipt. */
export type SendRequest = { kind: 'message'; message: SendMessage } | { kind: 'read'; messageId: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const chars = (s: string) => [...s].length;

/**
 * Validates a send body the way the Cloud API does, answering its `(#100)` / `(#131009)` errors. The sandbox
 * supports the `text`, `template`, media, `location` and `interactive` types and mark-as-read bodies (`status: "read"`); unknown fields are ignored.
 */
export function parseSendRequest(body: unknown): SendRequest {
  if (!isObject(body) || body.messaging_product === undefined) throw GraphErrors.invalidParameter('The parameter messaging_product is required.');
  if (body.messaging_product !== 'whatsapp') {
    throw GraphErrors.invalidParameter(`Param messaging_product must be one of {WHATSAPP} - got "${String(body.messaging_product)}".`);
  }
  if (body.status !== undefined) return parseReadReceipt(body);

  if (body.recipient_type !== undefined && body.recipient_type !== 'individual') {
    throw GraphErrors.invalidParameter(`Param recipient_type must be one of {INDIVIDUAL} - got "${String(body.recipient_type)}".`);
  }
  const common = { ...parseRecipient(body.to), ...parseContext(body), bizOpaqueCallbackData: parseOpaque(body.biz_opaque_callback_data) };
  const type = body.type ?? 'text';
  switch (type as string) {
    case 'text':
      return { kind: 'message', message: { ...common, type: 'text', ...parseText(body.text) } };
    case 'template':
      return { kind: 'message', message: { ...common, type: 'template', template: parseTemplate(body.template) } };
    case 'location':
    case 'interactive':
    case 'image':
    case 'document':
    case 'audio':
    case 'video':
    case 'sticker':
      return { kind: 'message', message: { ...common, type: type as RichType, content: parseRichContent(type as RichType, body[type as string]) } };
    default:
      throw GraphErrors.invalidParameter(`Param type must be one of {TEXT, TEMPLATE, LOCATION, INTERACTIVE, ${MEDIA_MESSAGE_TYPES.join(', ').toUpperCase()}} - got "${String(type)}".`);
  }
}

function parseReadReceipt(body: Json): SendRequest {
  if (body.status !== 'read') throw GraphErrors.invalidParameter(`Param status must be one of {READ} - got "${String(body.status)}".`);
  if (typeof body.message_id !== 'string' || body.message_id.length === 0) throw GraphErrors.invalidParameter('The parameter message_id is required.');
  const indicator = body.typing_indicator;
  if (indicator !== undefined && (!isObject(indicator) || indicator.type !== 'text')) {
    throw GraphErrors.invalidParameter(`Param typing_indicator['type'] must be one of {TEXT}.`);
  }
  return { kind: 'read', messageId: body.message_id };
}

function parseRecipient(to: unknown): Pick<Common, 'input' | 'to'> {
  if (typeof to !== 'string' || to.trim() === '') throw GraphErrors.invalidParameter('The parameter to is required.');
  // Meta accepts the number with or without its `+` and with common separators.
  const compact = to.trim().replace(/[\s().-]/g, '');
  const e164 = `+${digitsOf(compact)}`;
  if (!/^\+?\d+$/.test(compact) || !isE164(e164)) {
    throw GraphErrors.invalidValue(`The recipient "${to}" is not a valid WhatsApp phone number in international format.`);
  }
  return { input: to, to: e164 };
}

function parseContext(body: Json): Pick<Common, 'contextMessageId'> {
  if (body.context === undefined) return { contextMessageId: null };
  if (!isObject(body.context) || typeof body.context.message_id !== 'string' || body.context.message_id === '') {
    throw GraphErrors.invalidParameter(`The parameter context['message_id'] is required.`);
  }
  return { contextMessageId: body.context.message_id };
}

function parseOpaque(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') throw GraphErrors.invalidParameter('Param biz_opaque_callback_data must be a string.');
  if (chars(value) > OPAQUE_MAX_CHARS) throw GraphErrors.invalidParameter(`Param biz_opaque_callback_data must be at most ${OPAQUE_MAX_CHARS} characters long.`);
  return value;
}

function parseText(text: unknown): { body: string; previewUrl: boolean } {
  if (!isObject(text) || typeof text.body !== 'string' || text.body.length === 0) throw GraphErrors.invalidParameter(`The parameter text['body'] is required.`);
  if (chars(text.body) > TEXT_MAX_CHARS) throw GraphErrors.invalidParameter(`Param text['body'] must be at most ${TEXT_MAX_CHARS} characters long.`);
  if (text.preview_url !== undefined && typeof text.preview_url !== 'boolean') throw GraphErrors.invalidParameter(`Param text['preview_url'] must be a boolean.`);
  return { body: text.body, previewUrl: text.preview_url === true };
}

function parseTemplate(template: unknown): TemplateContent {
  if (!isObject(template)) throw GraphErrors.invalidParameter(`The parameter template is required.`);
  if (typeof template.name !== 'string' || template.name.length === 0) throw GraphErrors.invalidParameter(`The parameter template['name'] is required.`);
  if (chars(template.name) > 512) throw GraphErrors.invalidParameter(`Param template['name'] must be at most 512 characters long.`);
  const language = template.language;
  if (!isObject(language) || typeof language.code !== 'string' || language.code.length === 0) {
    throw GraphErrors.invalidParameter(`The parameter template['language']['code'] is required.`);
  }
  if (template.components !== undefined && !Array.isArray(template.components)) {
    throw GraphErrors.invalidParameter(`Param template['components'] must be an array.`);
  }
  return {
    name: template.name,
    language: { code: language.code, ...(typeof language.policy === 'string' ? { policy: language.policy } : {}) },
    ...(template.components ? { components: template.components } : {}),
  };
}
