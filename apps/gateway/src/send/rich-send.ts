import { MEDIA_TYPES, RichSendBody, richSendErrors, validationProblem, type RichOutboundContent } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException, validateDto } from '@parley/service-kit';

/** A body with a `type` other than `text` is a media, location or interactive send (CONTRACT.md §13). */
export function isRichSend(raw: unknown): boolean {
  const type = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).type : undefined;
  return type !== undefined && type !== 'text';
}

/** `{type: "text", message}` is the plain text send, with its type said out loud. */
export function withoutTextType(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || (raw as Record<string, unknown>).type !== 'text') return raw;
  const { type: _text, ...rest } = raw as Record<string, unknown>;
  return rest;
}

export async function parseRichSendBody(raw: unknown): Promise<RichSendBody> {
  let body: RichSendBody | undefined;
  let errors: { field: string; message: string }[] = [];
  try {
    body = await validateDto(RichSendBody, raw);
  } catch (err) {
    if (!(err instanceof ProblemException) || !err.problem.errors) throw err;
    errors = err.problem.errors;
  }
  if (body) errors = richSendErrors(body);
  if (errors.length > 0 || !body) throw new ProblemException(validationProblem(errors));
  return body;
}

/**
 * The `message.outbound` content of a rich send. A media send names a file of the tenant's whose type fits the
 * message type (an image send takes a JPEG or PNG), else 400 naming `media_id`.
 */
export async function richContent(tenantId: string, body: RichSendBody, rpc: RpcClient, requestId: string): Promise<RichOutboundContent> {
  if (body.type === 'location') return { type: 'location', location: { ...body.location! } };
  if (body.type === 'interactive') {
    const i = body.interactive!;
    return i.type === 'button'
      ? { type: 'interactive', interactive: { type: 'button', body: i.body, buttons: i.buttons!.map(({ id, title }) => ({ id, title })) } }
      : {
          type: 'interactive',
          interactive: {
            type: 'list',
            body: i.body,
            button: i.button ?? 'Options',
            sections: i.sections!.map((s) => ({ ...(s.title ? { title: s.title } : {}), rows: s.rows.map((r) => ({ id: r.id, title: r.title, ...(r.description ? { description: r.description } : {}) })) })),
          },
        };
  }
  const mediaId = body.media_id!;
  let mimeType: string;
  try {
    mimeType = (await rpc.request('media.get', { tenant_id: tenantId, media_id: mediaId }, { requestId })).mime_type;
  } catch (err) {
    const status = (err as { problem?: { status?: number } }).problem?.status;
    if (status === 404) throw new ProblemException(validationProblem([{ field: 'media_id', message: `media_id ${mediaId} is not one of your media files (or it expired)` }]));
    throw err;
  }
  if (MEDIA_TYPES[mimeType]?.kind !== body.type) {
    throw new ProblemException(validationProblem([{ field: 'media_id', message: `media_id is ${mimeType}, which cannot be sent as ${body.type === 'image' ? 'an' : 'a'} ${body.type} message` }]));
  }
  return { type: body.type, media: { media_id: mediaId, ...(body.caption ? { caption: body.caption } : {}) } };
}
