import { GraphErrors } from './graph-error';

/** Non-text message types the sandbox takes, with the Cloud API's limits. */
export const MEDIA_MESSAGE_TYPES = ['image', 'document', 'audio', 'video', 'sticker'] as const;
export type MediaMessageType = (typeof MEDIA_MESSAGE_TYPES)[number];
export type RichType = MediaMessageType | 'location' | 'interactive';

const CAPTION_MAX = 1024;
const BUTTONS_MAX = 3;
const BUTTON_TITLE_MAX = 20;
const BUTTON_ID_MAX = 256;
const ROWS_MAX = 10;
const SECTIONS_MAX = 10;
const ROW_TITLE_MAX = 24;
const ROW_ID_MAX = 200;
const ROW_DESCRIPTION_MAX = 72;
const BODY_MAX = 1024;
const LIST_BUTTON_MAX = 20;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const chars = (s: string) => [...s].length;

/** The content object of a non-text message (`body[type]`), checked as the Cloud API checks it and kept as sent. */
export function parseRichContent(type: RichType, value: unknown): Json {
  if (!isObject(value)) throw GraphErrors.invalidParameter(`The parameter ${type} is required.`);
  if (type === 'location') return parseLocation(value);
  if (type === 'interactive') return parseInteractive(value);
  return parseMedia(type, value);
}

function parseMedia(type: MediaMessageType, media: Json): Json {
  const hasId = typeof media.id === 'string' && media.id !== '';
  const hasLink = typeof media.link === 'string' && media.link !== '';
  if (hasId === hasLink) throw GraphErrors.invalidParameter(`Param ${type} must have exactly one of id or link.`);
  if (media.caption !== undefined) {
    if (type === 'audio' || type === 'sticker') throw GraphErrors.invalidParameter(`Param ${type}['caption'] is not allowed for ${type}.`);
    if (typeof media.caption !== 'string' || chars(media.caption) > CAPTION_MAX) throw GraphErrors.invalidParameter(`Param ${type}['caption'] must be at most ${CAPTION_MAX} characters long.`);
  }
  if (media.filename !== undefined && (type !== 'document' || typeof media.filename !== 'string')) throw GraphErrors.invalidParameter(`Param ${type}['filename'] is only allowed for documents.`);
  return media;
}

function parseLocation(location: Json): Json {
  const { latitude, longitude } = location;
  if (typeof latitude !== 'number' || latitude < -90 || latitude > 90) throw GraphErrors.invalidParameter(`Param location['latitude'] must be a number between -90 and 90.`);
  if (typeof longitude !== 'number' || longitude < -180 || longitude > 180) throw GraphErrors.invalidParameter(`Param location['longitude'] must be a number between -180 and 180.`);
  return location;
}

function parseInteractive(interactive: Json): Json {
  const body = interactive.body;
  if (!isObject(body) || typeof body.text !== 'string' || body.text === '' || chars(body.text) > BODY_MAX) {
    throw GraphErrors.invalidParameter(`The parameter interactive['body']['text'] is required (at most ${BODY_MAX} characters).`);
  }
  const action = interactive.action;
  if (!isObject(action)) throw GraphErrors.invalidParameter(`The parameter interactive['action'] is required.`);
  if (interactive.type === 'button') {
    const buttons = action.buttons;
    if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > BUTTONS_MAX) throw GraphErrors.invalidParameter(`Param interactive['action']['buttons'] must have 1 to ${BUTTONS_MAX} buttons.`);
    for (const [i, button] of buttons.entries()) {
      const reply = isObject(button) && button.type === 'reply' && isObject(button.reply) ? button.reply : null;
      if (!reply || typeof reply.id !== 'string' || reply.id === '' || chars(reply.id) > BUTTON_ID_MAX) throw GraphErrors.invalidParameter(`Param interactive['action']['buttons'][${i}]['reply']['id'] is required.`);
      if (typeof reply.title !== 'string' || reply.title === '' || chars(reply.title) > BUTTON_TITLE_MAX) {
        throw GraphErrors.invalidParameter(`Param interactive['action']['buttons'][${i}]['reply']['title'] must be 1 to ${BUTTON_TITLE_MAX} characters long.`);
      }
    }
    return interactive;
  }
  if (interactive.type === 'list') {
    if (typeof action.button !== 'string' || action.button === '' || chars(action.button) > LIST_BUTTON_MAX) throw GraphErrors.invalidParameter(`Param interactive['action']['button'] must be 1 to ${LIST_BUTTON_MAX} characters long.`);
    const sections = action.sections;
    if (!Array.isArray(sections) || sections.length < 1 || sections.length > SECTIONS_MAX) throw GraphErrors.invalidParameter(`Param interactive['action']['sections'] must have 1 to ${SECTIONS_MAX} sections.`);
    let rows = 0;
    for (const [i, section] of sections.entries()) {
      if (!isObject(section) || !Array.isArray(section.rows) || section.rows.length === 0) throw GraphErrors.invalidParameter(`Param interactive['action']['sections'][${i}]['rows'] is required.`);
      for (const [j, row] of section.rows.entries()) {
        rows++;
        const ok = isObject(row) && typeof row.id === 'string' && row.id !== '' && chars(row.id) <= ROW_ID_MAX && typeof row.title === 'string' && row.title !== '' && chars(row.title) <= ROW_TITLE_MAX;
        if (!ok) throw GraphErrors.invalidParameter(`Param interactive['action']['sections'][${i}]['rows'][${j}] needs an id and a title of 1 to ${ROW_TITLE_MAX} characters.`);
        if (row.description !== undefined && (typeof row.description !== 'string' || chars(row.description) > ROW_DESCRIPTION_MAX)) {
          throw GraphErrors.invalidParameter(`Param interactive['action']['sections'][${i}]['rows'][${j}]['description'] must be at most ${ROW_DESCRIPTION_MAX} characters long.`);
        }
      }
    }
    if (rows > ROWS_MAX) throw GraphErrors.invalidParameter(`Param interactive['action']['sections'] must have at most ${ROWS_MAX} rows in total.`);
    return interactive;
  }
  throw GraphErrors.invalidParameter(`Param interactive['type'] must be one of {BUTTON, LIST} - got "${String(interactive.type)}".`);
}
