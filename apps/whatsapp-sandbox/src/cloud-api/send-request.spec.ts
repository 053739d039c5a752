import { GraphApiException } from './graph-error';
import { parseSendRequest } from './send-request';

function graphError(body: unknown): { status: number; error: ReturnType<GraphApiException['toResponse']>['error'] } {
  try {
    parseSendRequest(body);
  } catch (err) {
    if (err instanceof GraphApiException) return { status: err.status, error: err.toResponse().error };
    throw err;
  }
  throw new Error('expected a Graph error');
}

const text = (body: string, extra: Record<string, unknown> = {}) => ({ messaging_product: 'whatsapp', to: '+16505551234', type: 'text', text: { body }, ...extra });

describe('parseSendRequest (Cloud API send body)', () => {
  it('accepts a text message and normalises the recipient to E.164', () => {
    expect(parseSendRequest({ ...text('Hi'), recipient_type: 'individual', to: '1 (650) 555-1234' })).toEqual({
      kind: 'message',
      message: { input: '1 (650) 555-1234', to: '+16505551234', type: 'text', body: 'Hi', previewUrl: false, contextMessageId: null, bizOpaqueCallbackData: null },
    });
  });

  it('defaults type to text, as the Cloud API does', () => {
    const { messaging_product, to, text: t } = text('Hi');
    expect(parseSendRequest({ messaging_product, to, text: t })).toMatchObject({ kind: 'message', message: { type: 'text', body: 'Hi' } });
  });

  it('accepts a template with components, a reply context and biz_opaque_callback_data', () => {
    const template = { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] };
    expect(
      parseSendRequest({ messaging_product: 'whatsapp', to: '16505551234', type: 'template', template, context: { message_id: 'wamid.1' }, biz_opaque_callback_data: 'x' }),
    ).toEqual({
      kind: 'message',
      message: { input: '16505551234', to: '+16505551234', type: 'template', template, contextMessageId: 'wamid.1', bizOpaqueCallbackData: 'x' },
    });
  });

  it('accepts a read receipt with a typing indicator', () => {
    expect(parseSendRequest({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.IN', typing_indicator: { type: 'text' } })).toEqual({
      kind: 'read',
      messageId: 'wamid.IN',
    });
  });

  it('counts the 4096-character limit in characters, not UTF-16 units', () => {
    expect(parseSendRequest(text('🍰'.repeat(4096)))).toMatchObject({ kind: 'message' });
    expect(graphError(text('a'.repeat(4097)))).toEqual({
      status: 400,
      error: {
        message: "(#100) Param text['body'] must be at most 4096 characters long.",
        type: 'OAuthException',
        code: 100,
        error_data: { messaging_product: 'whatsapp', details: "Param text['body'] must be at most 4096 characters long." },
        fbtrace_id: expect.any(String),
      },
    });
  });

  it.each([
    ['no body object', 'nope', 100, 'The parameter messaging_product is required.'],
    ['a missing messaging_product', { to: '+16505551234', text: { body: 'x' } }, 100, 'The parameter messaging_product is required.'],
    ['another messaging_product', { ...text('x'), messaging_product: 'sms' }, 100, 'Param messaging_product must be one of {WHATSAPP} - got "sms".'],
    ['a missing recipient', { messaging_product: 'whatsapp', type: 'text', text: { body: 'x' } }, 100, 'The parameter to is required.'],
    ['an unsupported type', { ...text('x'), type: 'reaction' }, 100, 'Param type must be one of {TEXT, TEMPLATE, LOCATION, INTERACTIVE, IMAGE, DOCUMENT, AUDIO, VIDEO, STICKER} - got "reaction".'],
    ['a media type without its object', { ...text('x'), type: 'sticker' }, 100, 'The parameter sticker is required.'],
    ['an image with both an id and a link', { ...text('x'), type: 'image', image: { id: '1', link: 'https://example.com/a.png' } }, 100, "Param image must have exactly one of id or link."],
    ['four reply buttons', { ...text('x'), type: 'interactive', interactive: { type: 'button', body: { text: 'Pick' }, action: { buttons: ['a', 'b', 'c', 'd'].map((id) => ({ type: 'reply', reply: { id, title: id } })) } } }, 100, "Param interactive['action']['buttons'] must have 1 to 3 buttons."],
    ['a latitude out of range', { ...text('x'), type: 'location', location: { latitude: 91, longitude: 0 } }, 100, "Param location['latitude'] must be a number between -90 and 90."],
    ['an empty text', text(''), 100, "The parameter text['body'] is required."],
    ['a template without a language', { messaging_product: 'whatsapp', to: '+16505551234', type: 'template', template: { name: 't' } }, 100, "The parameter template['language']['code'] is required."],
    ['a read receipt without its message', { messaging_product: 'whatsapp', status: 'read' }, 100, 'The parameter message_id is required.'],
    ['a group recipient', { ...text('x'), recipient_type: 'group' }, 100, 'Param recipient_type must be one of {INDIVIDUAL} - got "group".'],
  ])('refuses %s with code 100', (_case, body, code, detail) => {
    const { status, error } = graphError(body);
    expect(status).toBe(400);
    expect(error).toMatchObject({ code, type: 'OAuthException', message: `(#${code}) ${detail}` });
  });

  it.each(['+1555', 'not-a-number', '+15550100123', '+1 650 555 1234 ext 2'])('refuses the recipient %p with code 131009', (to) => {
    const { status, error } = graphError(text('x', { to }));
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: 131009, message: '(#131009) Parameter value is not valid', error_data: { details: expect.stringContaining(to) } });
  });
});
