import { RichSendBody } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { parseSendBody } from './send-body';

const base = { channel: 'whatsapp', to: '+14155550123' };
const MEDIA_ID = 'med_01JD5QX0Z8M3V1H2K4N6P7R9ST';

async function fieldsOf(body: unknown): Promise<string[]> {
  try {
    await parseSendBody(body);
  } catch (err) {
    if (err instanceof ProblemException) return (err.problem.errors ?? []).map((e) => e.field);
    throw err;
  }
  throw new Error('accepted');
}

const buttons = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `b${i}`, title: `Option ${i}` }));

describe('parseSendBody: media, location and interactive sends (CONTRACT §13)', () => {
  it('accepts each shape as a RichSendBody, and type "text" as the plain text send', async () => {
    for (const body of [
      { ...base, type: 'image', media_id: MEDIA_ID, caption: 'Fresh today' },
      { ...base, type: 'audio', media_id: MEDIA_ID },
      { ...base, type: 'location', location: { latitude: 52.37, longitude: 4.9, name: 'Bakery' } },
      { ...base, type: 'interactive', interactive: { type: 'button', body: 'Pick one', buttons: buttons(3) } },
      { ...base, type: 'interactive', interactive: { type: 'list', body: 'Pick a time', sections: [{ title: 'Tomorrow', rows: buttons(10) }] } },
    ]) {
      expect(await parseSendBody(body)).toBeInstanceOf(RichSendBody);
    }
    expect(await parseSendBody({ ...base, type: 'text', message: 'hi' })).toMatchObject({ message: 'hi' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a media send without media_id', { type: 'image' }, 'media_id'],
    ['a media id that is not one', { type: 'video', media_id: 'abc' }, 'media_id'],
    ['a caption on audio', { type: 'audio', media_id: MEDIA_ID, caption: 'x' }, 'caption'],
    ['a caption over 1024 characters', { type: 'image', media_id: MEDIA_ID, caption: 'x'.repeat(1025) }, 'caption'],
    ['a location without coordinates', { type: 'location', location: { name: 'x' } }, 'location.latitude'],
    ['a longitude out of range', { type: 'location', location: { latitude: 0, longitude: 181 } }, 'location.longitude'],
    ['four reply buttons', { type: 'interactive', interactive: { type: 'button', body: 'x', buttons: buttons(4) } }, 'interactive.buttons'],
    ['a button title over 20 characters', { type: 'interactive', interactive: { type: 'button', body: 'x', buttons: [{ id: 'a', title: 'x'.repeat(21) }] } }, 'interactive.buttons[0].title'],
    ['two buttons with one id', { type: 'interactive', interactive: { type: 'button', body: 'x', buttons: [{ id: 'a', title: 'A' }, { id: 'a', title: 'B' }] } }, 'interactive.buttons'],
    ['eleven list rows', { type: 'interactive', interactive: { type: 'list', body: 'x', sections: [{ rows: buttons(6) }, { rows: buttons(5).map((b) => ({ ...b, id: `c${b.id}` })) }] } }, 'interactive.sections'],
    ['a list row title over 24 characters', { type: 'interactive', interactive: { type: 'list', body: 'x', sections: [{ rows: [{ id: 'a', title: 'x'.repeat(25) }] }] } }, 'interactive.sections[0].rows[0].title'],
    ['an interactive type that is neither', { type: 'interactive', interactive: { type: 'carousel', body: 'x' } }, 'interactive.type'],
    ['an unknown type', { type: 'sticker', media_id: MEDIA_ID }, 'type'],
    ['location fields on an image', { type: 'image', media_id: MEDIA_ID, location: { latitude: 0, longitude: 0 } }, 'location'],
    ['another channel', { type: 'image', media_id: MEDIA_ID, channel: 'sms' }, 'channel'],
  ])('refuses %s, naming the field', async (_name, body, field) => {
    expect(await fieldsOf({ ...base, ...body })).toContain(field);
  });
});
