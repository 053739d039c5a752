import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { PLAYGROUND_CHANNELS } from './playground.dto';

/*
 * The answers of the playground's relay (development only): the WhatsApp sandbox's own shapes, a message in the Cloud
 * API's (its content under its type's name), a text message (`channel: "sms"`) in the same shape.
 */

const string: SchemaObject = { type: 'string' };
const optional = (properties: Record<string, SchemaObject>, required: string[] = []): SchemaObject => ({ type: 'object', properties, ...(required.length ? { required } : {}) });

/** A media object as the sandbox delivered it (its own id or a link, not a stored `med_…`). */
const cloudMedia = optional({ id: string, link: string, caption: string, filename: string, mime_type: string });

const interactive = optional(
  {
    type: string,
    body: optional({ text: string }, ['text']),
    action: optional({
      button: string,
      buttons: { type: 'array', items: optional({ reply: optional({ id: string, title: string }) }) },
      sections: { type: 'array', items: optional({ title: string, rows: { type: 'array', items: optional({ id: string, title: string }) } }) },
    }),
  },
  ['type'],
);

export const PlaygroundMessageSchema: SchemaObject = optional(
  {
    id: string,
    channel: { type: 'string', enum: [...PLAYGROUND_CHANNELS] },
    phone_number_id: { type: 'string', nullable: true, description: 'The WhatsApp number’s id; null for a text message.' },
    from: { type: 'string', description: 'The business number or SMS number that sent it.' },
    to: { type: 'string', description: 'The customer.' },
    type: { type: 'string', description: '`text`, `template`, `image`, `document`, `audio`, `video`, `sticker`, `location` or `interactive`.' },
    text: optional({ body: string }, ['body']),
    image: cloudMedia,
    document: cloudMedia,
    audio: cloudMedia,
    video: cloudMedia,
    sticker: cloudMedia,
    location: optional({ latitude: { type: 'number' }, longitude: { type: 'number' }, name: string, address: string }, ['latitude', 'longitude']),
    interactive,
    template: optional({ name: string, language: optional({ code: string }) }, ['name']),
    timestamp: { type: 'string', format: 'date-time' },
  },
  ['id', 'channel', 'phone_number_id', 'to', 'type', 'timestamp'],
);

export const PlaygroundMessagesSchema: SchemaObject = optional({ data: { type: 'array', items: PlaygroundMessageSchema } }, ['data']);

export const PlaygroundWriteAnswerSchema: SchemaObject = optional(
  {
    id: { type: 'string', description: 'The message’s id at the sandbox (a WhatsApp message id, or an SMS sid).' },
    queued: { type: 'boolean', enum: [true], description: 'The platform did not take the message yet; the sandbox keeps delivering it.' },
  },
  ['id'],
);
