import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ConversationNoteBody,
  ConversationReplyBody,
  MessageFeedbackBody,
  UpdateConversationBody,
  mentionsIn,
  validationProblem,
  type ConversationFilter,
  type ConversationNoteRecord,
  type ConversationRecord,
  type ConversationView,
  type ConversationTurnRecord,
  type InboxActor,
  type MessageFeedbackRecord,
  type Page,
} from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { pageOf } from '../http/list-query.dto';
import { PrefixedIdPipe } from '../http/param-pipes';
import { CurrentMember, RequestId, Tenant, type SignedInMember } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { TeamService } from '../identity/team/team.service';
import { ConversationListQueryDto } from './conversation-list-query.dto';
import { ThreadStatuses } from './thread-statuses';

const ConversationId = new PrefixedIdPipe('cnv', 'Conversation');
const MessageId = new PrefixedIdPipe('msg', 'Message');

/**
 * Conversations and the inbox (CONTRACT.md §9, §10, §12), owned by responder-service. Who acts is the signed-in
 * member, or `api` for a program (API key, client-credentials token).
 */
@Controller('api/v1/conversations')
export class ConversationsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly team: TeamService,
    private readonly statuses: ThreadStatuses,
  ) {}

  @ApiRoute({
    summary: 'List conversations (the inbox)',
    description:
      'Newest first. `assignee=me` needs a signed-in team member. `q` finds the conversations where every word of it is in something the customer or the business wrote (full-text search in the conversation’s language, accents and case ignored, a word’s beginning while typing), or in the contact’s name or number. `source=customer` leaves out the playground’s conversations, `source=playground` shows only them. Each carries `last_customer_message`, the customer’s own latest message (the preview), beside `last_message`.',
    access: 'tenant',
    query: ConversationListQueryDto,
    success: { status: 200, description: 'A page of conversations.', schema: 'ConversationPage' },
  })
  @Get()
  list(
    @Tenant() tenantId: string,
    @Query() query: ConversationListQueryDto,
    @CurrentMember() member: SignedInMember | null,
    @RequestId() requestId: string,
  ): Promise<Page<ConversationView>> {
    const filter: ConversationFilter = {
      state: query.state ?? null,
      assignee: query.assignee === 'me' ? memberOrRefuse(member) : (query.assignee ?? null),
      channel: query.channel ?? null,
      q: query.q ?? null,
      source: query.source ?? null,
      team_id: query.team_id ?? null,
      label: query.label ?? null,
      mentioned: query.mentioned === 'me' ? memberOrRefuse(member, 'mentioned') : (query.mentioned ?? null),
    };
    return this.rpc.request('conversations.list', { tenant_id: tenantId, ...pageOf(query), ...filter }, { requestId });
  }

  @ApiRoute({
    summary: 'Get a conversation with its thread and notes',
    description:
      'Messages oldest first, each with its `author`, and each message to the customer with its `status` (`sent`, `delivered`, `read`, `failed` with `error`; null until the provider answers): the inbox’s ticks, updated live by `message.status` on the events stream. Internal notes as a separate list, oldest first. Opened by a signed-in team member, it is marked read (`unread` 0).',
    access: 'tenant',
    success: { status: 200, description: 'The conversation.', schema: 'ConversationDetail' },
    errors: [404],
  })
  @Get(':id')
  async get(
    @Tenant() tenantId: string,
    @Param('id', ConversationId) id: string,
    @CurrentMember() member: SignedInMember | null,
    @RequestId() requestId: string,
  ): Promise<ConversationRecord> {
    const conversation = await this.rpc.request('conversations.get', { tenant_id: tenantId, id, reader: member?.id ?? null }, { requestId });
    return this.statuses.withStatuses(tenantId, conversation, requestId);
  }

  @ApiRoute({
    summary: 'Take over, give back, close, assign, label or move a conversation',
    description:
      '`state`: `handed_off` (a person answers, the agent is silent), `active` (the agent answers again), `closed`. `assignee`: a member of the tenant’s team (else 400) or null. Closing it inside the customer’s 24-hour window sends them one rating question (a list of 1–5 on WhatsApp, a short text question on SMS and email); their answer sets `rating` and sends `conversation.rated`. `labels` replaces its labels. `team_id` moves it to one of the tenant’s teams (else 400), whose routing then hands it to one of its members when nobody holds it; null takes it out of any team.',
    access: 'tenant',
    body: UpdateConversationBody,
    success: { status: 200, description: 'The conversation.', schema: 'Conversation' },
    errors: [404],
  })
  @Patch(':id')
  async update(
    @Tenant() tenantId: string,
    @Param('id', ConversationId) id: string,
    @Body() body: UpdateConversationBody,
    @CurrentMember() member: SignedInMember | null,
    @RequestId() requestId: string,
  ): Promise<ConversationView> {
    if (body.state === undefined && body.assignee === undefined && body.labels === undefined && body.team_id === undefined) {
      throw new ProblemException(validationProblem([{ field: 'state', message: 'give at least one of state, assignee, labels, team_id' }]));
    }
    if (body.assignee) await this.team.checkMembers(tenantId, [{ field: 'assignee', id: body.assignee, message: `assignee ${body.assignee} is not a member of this team` }]);
    return this.rpc.request('conversations.update', { tenant_id: tenantId, id, change: body, actor: actorOf(member) }, { requestId });
  }

  /** The tenant takes a handed-off conversation back: the agent answers again (= PATCH `{state: "active"}`). */
  @ApiRoute({ summary: 'Release a handed-off conversation back to the agent', access: 'tenant', success: { status: 200, description: 'The conversation.', schema: 'Conversation' }, errors: [404] })
  @Post(':id/release')
  @HttpCode(200)
  release(@Tenant() tenantId: string, @Param('id', ConversationId) id: string, @RequestId() requestId: string): Promise<ConversationView> {
    return this.rpc.request('conversations.release', { tenant_id: tenantId, id }, { requestId });
  }

  @ApiRoute({
    summary: 'Reply to the customer as a person',
    description:
      'Sent like any message (`message.outbound`); stored in the thread with `author: {type: "member", id}`. Replying to an `active` conversation hands it off. More than 24 h after the customer last wrote, only a template may be sent (`POST /v1/send`): 409 `customer-service-window-closed`; a closed conversation answers 409 too.',
    access: 'tenant',
    body: ConversationReplyBody,
    success: { status: 201, description: 'The message as stored in the thread.', schema: 'ConversationMessage' },
    errors: [404, 409, 503],
  })
  @Post(':id/messages')
  @HttpCode(201)
  reply(
    @Tenant() tenantId: string,
    @Param('id', ConversationId) id: string,
    @Body() body: ConversationReplyBody,
    @CurrentMember() member: SignedInMember | null,
    @RequestId() requestId: string,
  ): Promise<ConversationTurnRecord> {
    return this.rpc.request('conversations.reply', { tenant_id: tenantId, id, message: body.message, actor: actorOf(member) }, { requestId });
  }

  @ApiRoute({
    summary: 'Add an internal note (never sent to the customer)',
    description: 'Mention a member with `@usr_…` (the dashboard shows their name): the note lists them in `mentions`, and they find the conversation with `GET /api/v1/conversations?mentioned=me`. A mention of someone not in the team → 400 naming `text`.',
    access: 'tenant',
    body: ConversationNoteBody,
    success: { status: 201, description: 'The note.', schema: 'ConversationNote' },
    errors: [404],
  })
  @Post(':id/notes')
  @HttpCode(201)
  async note(
    @Tenant() tenantId: string,
    @Param('id', ConversationId) id: string,
    @Body() body: ConversationNoteBody,
    @CurrentMember() member: SignedInMember | null,
    @RequestId() requestId: string,
  ): Promise<ConversationNoteRecord> {
    const mentioned = mentionsIn(body.text).map((id) => ({ field: 'text', id, message: `text mentions @${id}, who is not a member of this team` }));
    await this.team.checkMembers(tenantId, mentioned);
    return this.rpc.request('conversations.note', { tenant_id: tenantId, id, text: body.text, actor: actorOf(member) }, { requestId });
  }

  @ApiRoute({
    summary: "Mark an agent's reply right or wrong",
    description:
      "On a reply the AI agent gave in this conversation (404 for any other message). `wrong` counts the customer's question it answered in the agent's knowledge gaps (`GET /api/v1/agents/{name}/gaps`), with the reply given; a later verdict replaces the earlier one.",
    access: 'tenant',
    body: MessageFeedbackBody,
    success: { status: 200, description: 'The verdict as recorded.', schema: 'MessageFeedback' },
    errors: [400, 404, 503],
  })
  @Post(':id/messages/:message_id/feedback')
  @HttpCode(200)
  feedback(
    @Tenant() tenantId: string,
    @Param('id', ConversationId) id: string,
    @Param('message_id', MessageId) messageId: string,
    @Body() body: MessageFeedbackBody,
    @CurrentMember() member: SignedInMember | null,
    @RequestId() requestId: string,
  ): Promise<MessageFeedbackRecord> {
    return this.rpc.request(
      'conversations.feedback',
      { tenant_id: tenantId, id, message_id: messageId, verdict: body.verdict, note: body.note ?? null, actor: actorOf(member) },
      { requestId },
    );
  }
}

function actorOf(member: SignedInMember | null): InboxActor {
  return member ? { type: 'member', id: member.id } : { type: 'api' };
}

function memberOrRefuse(member: SignedInMember | null, field: 'assignee' | 'mentioned' = 'assignee'): string {
  if (member) return member.id;
  throw new ProblemException(validationProblem([{ field, message: `${field}=me needs a signed-in team member; an API key names the member (usr_…)` }]));
}
