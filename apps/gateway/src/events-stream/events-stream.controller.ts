import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { CurrentMember, Tenant, type SignedInMember } from '../http/request-context';
import { PresenceBeacon } from '../teams/presence-beacon';
import { ApiRoute } from '../openapi/api-route.decorator';
import { EventsStreamService, STREAMED_TOPICS } from './events-stream.service';

const STREAM_DESCRIPTION = [
  'The dashboard’s live updates (CONTRACT.md §8): one long-lived answer that counts as one request against the daily quota.',
  `Each event is \`id: <event id>\`, \`event: <type>\` (${STREAMED_TOPICS.map((t) => `\`${t}\``).join(', ')}) and`,
  '`data: <the webhook body of that event, JSON>`, for the caller’s tenant only, from the moment the stream opens.',
  'A `: keep-alive` comment comes every 15 s; `retry:` suggests the reconnection delay. A client that stops reading is disconnected;',
  'on reconnecting it should refetch what it shows. At most 10 streams per tenant are open at once (429 beyond).',
  'A signed-in team member’s open stream is their presence: routing hands conversations only to members with one open (and not switched `away`).',
].join(' ');

/** `GET /api/v1/events/stream`: server-sent events of the tenant's public events. */
@Controller('api/v1/events')
export class EventsStreamController {
  constructor(
    private readonly streams: EventsStreamService,
    private readonly presence: PresenceBeacon,
  ) {}

  @ApiRoute({
    summary: 'Stream the tenant’s events (server-sent events)',
    description: STREAM_DESCRIPTION,
    access: 'tenant',
    success: { status: 200, description: 'An open `text/event-stream`.', contentType: 'text/event-stream', schema: { type: 'string' } },
    errors: [503],
  })
  @Get('stream')
  async stream(@Tenant() tenantId: string, @CurrentMember() member: SignedInMember | null, @Res() reply: FastifyReply): Promise<void> {
    await this.streams.ready();
    this.streams.checkCapacity(tenantId);
    // From here the answer is ours to write: the headers set so far (request id, RateLimit) go out with it.
    reply.hijack();
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'x-request-id': String(reply.request.id),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.streams.attach(tenantId, reply.raw);
    // A member's open dashboard is their presence (routing hands conversations to members who are there).
    if (member) this.presence.follow(tenantId, member.id, reply.raw, String(reply.request.id));
  }
}
