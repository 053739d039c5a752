import type { CloudApiInboundMessage } from '../providers/cloud-api.types';
import { normaliseInbound, unixToIso } from './normalise';

const base = { from: '16505551234', id: 'wamid.A', timestamp: '1749416383' };
const contacts = [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }];
const norm = (item: Partial<CloudApiInboundMessage>) => normaliseInbound({ ...base, ...item }, contacts);

describe('normaliseInbound', () => {
  it('reads a text message with its sender, contact name and time', () => {
    expect(norm({ type: 'text', text: { body: 'Does it come in another color?' } })).toEqual({
      providerMessageId: 'wamid.A',
      from: '+16505551234',
      fromUserId: null,
      type: 'text',
      text: 'Does it come in another color?',
      sentAt: '2025-06-08T20:59:43.000Z',
      contactName: 'Sheena Nelson',
    });
  });

  it.each<[string, Partial<CloudApiInboundMessage>, string]>([
    ['image', { type: 'image', image: { id: 'm1', mime_type: 'image/jpeg', caption: 'our storefront' } }, '[image] our storefront'],
    ['image', { type: 'image', image: { id: 'm1' } }, '[image]'],
    ['video', { type: 'video', video: { id: 'm2', caption: 'demo' } }, '[video] demo'],
    ['audio', { type: 'audio', audio: { id: 'm3', voice: true } }, '[audio]'],
    ['document', { type: 'document', document: { id: 'm4', filename: 'invoice.pdf' } }, '[document] invoice.pdf'],
    ['sticker', { type: 'sticker', sticker: { id: 'm5', animated: false } }, '[sticker]'],
    ['location', { type: 'location', location: { latitude: 52.37, longitude: 4.89, name: 'Head office' } }, '[location] Head office (52.37, 4.89)'],
    ['location', { type: 'location', location: { latitude: 1.5, longitude: -2 } }, '[location] (1.5, -2)'],
    ['contacts', { type: 'contacts', contacts: [{ name: { formatted_name: 'Ana Silva' }, phones: [{ phone: '+351900000000' }] }] }, '[contacts] Ana Silva'],
    ['interactive', { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'b1', title: 'Yes, book it' } } }, 'Yes, book it'],
    ['interactive', { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'l1', title: 'Tuesday 10:00' } } }, 'Tuesday 10:00'],
    ['button', { type: 'button', button: { payload: 'STOP', text: 'Stop promotions' } }, '[button] Stop promotions'],
    ['reaction', { type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '👍' } }, '[reaction] 👍'],
    ['unsupported', { type: 'order' }, '[unsupported] order'],
    ['unsupported', { type: 'unsupported' }, '[unsupported]'],
    ['unsupported', { type: undefined }, '[unsupported]'],
  ])('maps a %s message to its type and a text stand-in', (type, item, text) => {
    expect(norm(item)).toMatchObject({ type, text });
  });

  it('uses the business-scoped user id when no phone number is given', () => {
    const result = normaliseInbound(
      { id: 'wamid.B', from_user_id: 'US.13491208655302741918', timestamp: '1749416383', type: 'text', text: { body: 'hi' } },
      [{ profile: { name: 'Anon' }, user_id: 'US.13491208655302741918' }],
    );
    expect(result).toMatchObject({ from: 'US.13491208655302741918', fromUserId: 'US.13491208655302741918', contactName: 'Anon' });
  });

  it('keeps both the number and the user id when both are given', () => {
    const result = normaliseInbound({ ...base, from_user_id: 'US.1', type: 'text', text: { body: 'x' } }, []);
    expect(result).toMatchObject({ from: '+16505551234', fromUserId: 'US.1', contactName: null });
  });

  it('rejects items with no id or no sender', () => {
    expect(normaliseInbound({ from: '1555', type: 'text' })).toBeNull();
    expect(normaliseInbound({ id: 'wamid.C', type: 'text' })).toBeNull();
  });

  it('reads unix-second timestamps and refuses garbage', () => {
    expect(unixToIso('0')).toBeNull();
    expect(unixToIso('soon')).toBeNull();
    expect(unixToIso(undefined)).toBeNull();
    expect(unixToIso('1750030073')).toBe('2025-06-15T23:27:53.000Z');
  });

  describe('with malformed provider input', () => {
    it('drops NUL characters from every text that is stored, so the message is kept', () => {
      const result = normaliseInbound(
        { id: 'wamid.\u0000N', from: '1650555\u00001234', type: 'text', text: { body: 'hel\u0000lo\u0000' } },
        [{ profile: { name: 'Sh\u0000eena' }, wa_id: '1650555\u00001234', user_id: 'US.\u00001' }],
      );
      expect(result).toMatchObject({ providerMessageId: 'wamid.N', text: 'hello', contactName: 'Sheena', fromUserId: 'US.1' });
      expect(JSON.stringify(result)).not.toContain('\\u0000');
    });

    it('drops NUL characters from stand-ins too', () => {
      expect(norm({ type: 'image', image: { id: 'm1', caption: 'a\u0000b' } })?.text).toBe('[image] ab');
    });

    it('ignores contacts that are not a list', () => {
      const result = normaliseInbound({ ...base, type: 'text', text: { body: 'hi' } }, { wa_id: '16505551234' });
      expect(result).toMatchObject({ from: '+16505551234', text: 'hi', contactName: null });
    });

    it('ignores null and non-object contact entries', () => {
      const result = normaliseInbound({ ...base, type: 'text', text: { body: 'hi' } }, [null, 'x', 7, { profile: { name: 'Ana' }, wa_id: '16505551234' }]);
      expect(result).toMatchObject({ text: 'hi', contactName: 'Ana' });
    });

    it('ignores a contact profile name that is not text', () => {
      expect(normaliseInbound({ ...base, type: 'text', text: { body: 'hi' } }, [{ profile: { name: 42 }, wa_id: '16505551234' }])).toMatchObject({ contactName: null });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a caption that is not text', { type: 'image', image: { caption: 12 } }, '[image]'],
      ['a media object that is a string', { type: 'video', video: 'oops' }, '[video]'],
      ['a text body that is not text', { type: 'text', text: { body: { x: 1 } } }, ''],
      ['a text that is null', { type: 'text', text: null }, ''],
      ['a document caption that is not text but a filename that is', { type: 'document', document: { caption: [], filename: 'f.pdf' } }, '[document] f.pdf'],
      ['a location that is a list', { type: 'location', location: [1, 2] }, '[location]'],
      ['contact cards that are not a list', { type: 'contacts', contacts: { name: 'x' } }, '[contacts]'],
      ['contact cards with null entries', { type: 'contacts', contacts: [null, { name: { first_name: 'Bo' } }] }, '[contacts] Bo'],
      ['an interactive reply title that is not text', { type: 'interactive', interactive: { button_reply: { title: true } } }, '[interactive]'],
      ['a reaction emoji that is not text', { type: 'reaction', reaction: { emoji: 1 } }, '[reaction]'],
      ['a button that is null', { type: 'button', button: null }, '[button]'],
    ])('survives %s', (_, item, text) => {
      expect(normaliseInbound({ ...base, ...item }, contacts)).toMatchObject({ text });
    });

    it.each<[string, unknown]>([
      ['null', null],
      ['a string', 'wamid.A'],
      ['a number', 7],
      ['a list', [base]],
      ['an id that is not text', { ...base, id: 5 }],
      ['a sender that is not text', { id: 'wamid.A', from: { n: 1 } }],
    ])('returns null for an item that is %s', (_, item) => {
      expect(normaliseInbound(item, [])).toBeNull();
    });
  });
});

