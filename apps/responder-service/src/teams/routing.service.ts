import { Injectable } from '@nestjs/common';
import { derivedId, type MessageAuthor, type RoutingRuleRecord } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
import type { ConversationEntity, SlaTarget } from '../conversations/conversation.entity';
import { ConversationsStore } from '../conversations/conversations.store';
import { InboxLinks, conversationUpdatedEvent, slaBreachedEvent, toCustomerEvent } from '../conversations/inbox-events';
import { searchConfigOf } from '../conversations/inbox-search';
import { isLanguage } from '../knowledge/language';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import type { StoredEvent } from '../replies/processed-message.entity';
import { isOpen, nextOpening } from './business-hours';
import { memberFor, teamFor, type TeamRoster } from './routing';
import { RoutingStore } from './routing.store';
import { TeamsStore, type TeamRow } from './teams.store';
import { waitingMessage, type Waiting } from './waiting-message';

/** A customer is told they wait only while they are waiting: a handoff older than this (a queue met late) goes unannounced. */
const TELL_WITHIN_MS = 60 * 60 * 1000;

/** What one tenant's pass decides from, read once under its routing lock and kept current as it assigns. */
interface TenantRouting {
  teams: Map<string, TeamRow>;
  defaultTeam: TeamRow;
  rules: RoutingRuleRecord[];
  available: Set<string>;
  loads: Map<string, number>;
}

/**
 * Routing (CONTRACT.md §18): hands each conversation the agent handed off to a member of the team the rules pick, by
 * the team's routing, among its available members under capacity, in business hours; otherwise it waits in the team's
 * queue and the customer is told once, in their language, when to expect an answer (outside hours: the team's closed
 * message and the next opening). An assignee who sends nothing within the team's reassign time loses it to the next
 * member. A tenant is routed by one instance at a time and each conversation under its lock, so a conversation never
 * has two assignees and a member never more than their capacity, also with several instances.
 */
@Injectable()
export class RoutingService {
  constructor(
    private readonly store: RoutingStore,
    private readonly teams: TeamsStore,
    private readonly conversations: ConversationsStore,
    private readonly relay: OutboxRelay,
    private readonly links: InboxLinks,
  ) {}

  tenantsWithWork(): Promise<string[]> {
    return this.store.tenantsWithWork();
  }

  /** One pass over a tenant's queue and due reassignments; nothing when another instance is routing it. */
  async routeTenant(tenantId: string, now = new Date()): Promise<void> {
    await this.relay.relayAfter((work) => this.store.transaction(work), async (tx) => {
      if (!(await this.store.lockTenant(tenantId, tx))) return;
      const teams = await this.teams.list(tenantId, tx);
      const [queue, due] = [await this.store.queue(tenantId, tx), await this.store.dueReassignments(tenantId, tx)];
      const events: StoredEvent[] = [];
      if (teams.length === 0) {
        // No team to route to: the handoffs wait for whoever opens the inbox, as before teams existed.
        for (const c of queue) await this.underLock(tx, tenantId, c.id, async () => ({ changes: { queuedAt: null }, events: [] }));
        return;
      }
      const routing: TenantRouting = {
        teams: new Map(teams.map((t) => [t.id, t])),
        defaultTeam: teams[0],
        rules: await this.teams.rules(tenantId, tx),
        available: await this.store.availableMembers(tenantId, tx),
        loads: await this.store.loads(tenantId, tx),
      };
      // A conversation that waits on as it is (routed, told, nobody free) is passed over without taking its lock: a long
      // queue costs a sweep one read.
      for (const seen of queue.filter((c) => this.mayRoute(c, routing, now))) {
        events.push(...(await this.underLock(tx, tenantId, seen.id, (c) => this.route(tx, tenantId, c, routing, now))));
      }
      for (const id of due) events.push(...(await this.underLock(tx, tenantId, id, (c) => this.reassign(tx, tenantId, c, routing, now))));
      for (const id of await this.store.dueSlaChecks(tenantId, tx)) events.push(...(await this.underLock(tx, tenantId, id, async (c) => this.checkSla(tenantId, c, now))));
      await enqueueEvents(tx, events);
    });
  }

  /** Whether routing would change a waiting conversation as it was read: a team to pick, a member free, or the customer to tell. */
  private mayRoute(c: ConversationEntity, routing: TenantRouting, now: Date): boolean {
    const team = c.teamId ? routing.teams.get(c.teamId) : undefined;
    if (!team || !c.queuedAt || !c.routedAt || c.routedAt < c.queuedAt) return true;
    if (isOpen(team, now) && memberFor(rosterOf(team), routing.available, routing.loads) !== null) return true;
    return !this.told(c) && this.tellable(c, now);
  }

  private told(c: ConversationEntity): boolean {
    return !!(c.customerToldAt && c.queuedAt && c.customerToldAt >= c.queuedAt);
  }

  /** Whether the customer is still there to be told: a handoff of the last hour, on a channel that takes text. */
  private tellable(c: ConversationEntity, now: Date): boolean {
    return c.channel !== 'voice' && now.getTime() - c.lastMessageAt.getTime() < TELL_WITHIN_MS;
  }

  /** A waiting conversation: its team (once per handoff), then a member, or the customer told they wait. */
  private async route(tx: EntityManager, tenantId: string, c: ConversationEntity, routing: TenantRouting, now: Date): Promise<Decision> {
    if (c.state !== 'handed_off' || c.assignee || !c.queuedAt) return NOTHING;
    const changes: Partial<ConversationEntity> = {};
    let team = c.teamId ? routing.teams.get(c.teamId) : undefined;
    if (!c.routedAt || c.routedAt < c.queuedAt || !team) {
      const tags = routing.rules.some((r) => r.match.contact_tag !== undefined) ? await this.store.contactTags(tenantId, c.customer, tx) : [];
      const facts = { channel: c.channel, channelId: c.channelId, skill: c.handoffSkill ?? null, text: c.lastCustomerMessage?.text ?? null, contactTags: tags };
      team = routing.teams.get(teamFor(routing.rules, facts, null) ?? '') ?? routing.defaultTeam;
      Object.assign(changes, { teamId: team.id, routedAt: now, slaBreaches: [], ...slaDue(team, c.queuedAt) });
    }
    const member = isOpen(team, now) ? memberFor(rosterOf(team), routing.available, routing.loads) : null;
    if (member) {
      Object.assign(changes, { assignee: member, assignedAt: now });
      await this.gave(tx, tenantId, team, member, routing);
      return { changes, events: [conversationUpdatedEvent(tenantId, { ...c, ...changes }, 'assignee', now)] };
    }
    if (!this.told(c) && this.tellable(c, now)) {
      const waiting: Waiting = isOpen(team, now)
        ? { kind: 'busy', firstResponseSeconds: team.sla?.first_response_seconds ?? null }
        : { kind: 'closed', closedMessage: team.closed_message, opensAt: nextOpening(team, now), timezone: team.timezone };
      return this.tell(tx, tenantId, { ...c, ...changes }, waitingMessage(waiting, isLanguage(c.skillState.language) ? c.skillState.language : 'en'), changes, now);
    }
    return { changes, events: changes.teamId ? [conversationUpdatedEvent(tenantId, { ...c, ...changes }, 'assignee', now)] : [] };
  }

  /**
   * A routed assignment whose assignee sent nothing in the team's reassign time: to the next member who can take it;
   * with none, back to the queue if the assignee is no longer available, else theirs for another period.
   */
  private async reassign(tx: EntityManager, tenantId: string, c: ConversationEntity, routing: TenantRouting, now: Date): Promise<Decision> {
    const team = c.teamId ? routing.teams.get(c.teamId) : undefined;
    if (c.state !== 'handed_off' || !c.assignee || !c.assignedAt || !team?.reassign_after_seconds) return NOTHING;
    if (c.assignedAt.getTime() + team.reassign_after_seconds * 1000 > now.getTime()) return NOTHING;
    if (c.memberRepliedAt && c.memberRepliedAt >= c.assignedAt) return NOTHING;
    const previous = c.assignee;
    const member = isOpen(team, now) ? memberFor(rosterOf(team), routing.available, routing.loads, previous) : null;
    if (!member && routing.available.has(previous)) return { changes: { assignedAt: now }, events: [] };
    const changes: Partial<ConversationEntity> = member ? { assignee: member, assignedAt: now } : { assignee: null, assignedAt: null };
    routing.loads.set(previous, Math.max(0, (routing.loads.get(previous) ?? 1) - 1));
    if (member) await this.gave(tx, tenantId, team, member, routing);
    return { changes, events: [conversationUpdatedEvent(tenantId, { ...c, ...changes }, 'assignee', now)] };
  }

  /** Records and announces the targets a conversation missed, once each, and when to check it next. */
  private checkSla(tenantId: string, c: ConversationEntity, now: Date): Decision {
    if (!c.slaCheckAt || c.slaCheckAt > now) return NOTHING;
    const { missed, next } = slaCheck(c, now);
    const changes: Partial<ConversationEntity> = { slaCheckAt: next };
    if (missed.length === 0 || !c.teamId) return { changes, events: [] };
    changes.slaBreaches = [...(c.slaBreaches ?? []), ...missed.map((m) => m.target)];
    const after = { ...c, ...changes };
    const events = missed.map((m) => slaBreachedEvent(tenantId, after, this.links, { target: m.target, dueAt: m.dueAt, at: now }));
    return { changes, events: [...events, conversationUpdatedEvent(tenantId, after, 'state', now)] };
  }

  /** The member holds one more; round-robin continues after them. */
  private async gave(tx: EntityManager, tenantId: string, team: TeamRow, member: string, routing: TenantRouting): Promise<void> {
    routing.loads.set(member, (routing.loads.get(member) ?? 0) + 1);
    team.last_assigned = member;
    await this.store.lastAssigned(tenantId, team.id, member, tx);
  }

  /** The waiting message, sent as the agent's (through `message.outbound`, like its replies) and kept in the thread. */
  private async tell(tx: EntityManager, tenantId: string, c: ConversationEntity, text: string, changes: Partial<ConversationEntity>, now: Date): Promise<Decision> {
    const cause = `${c.id}:${c.queuedAt!.toISOString()}`;
    const messageId = derivedId('msg', 'waiting', cause);
    const agent = await this.conversations.lastAgentName(tenantId, c.id, tx);
    const author: MessageAuthor = agent ? { type: 'agent', name: agent } : { type: 'api' };
    await this.conversations.insertSent(tenantId, c.id, { messageId, author, text, at: now, content: null, searchConfig: searchConfigOf(c.skillState.language) }, tx);
    Object.assign(changes, { customerToldAt: now, lastMessage: { text, author, at: now.toISOString() } });
    return {
      changes,
      events: [
        toCustomerEvent(tenantId, c, { messageId, content: { type: 'text', text }, origin: 'agent', at: now, eventId: derivedId('evt', 'waiting', cause) }),
        conversationUpdatedEvent(tenantId, { ...c, ...changes }, 'message', now),
      ],
    };
  }

  /** Runs a decision on the conversation under its lock (never interleaving with a reply or a person's action) and writes it. */
  private async underLock(tx: EntityManager, tenantId: string, id: string, decide: (c: ConversationEntity) => Promise<Decision>): Promise<StoredEvent[]> {
    const seen = await this.store.find(tenantId, id, tx);
    if (!seen) return [];
    await this.conversations.lock(tenantId, seen.businessNumber, seen.customer, tx);
    const c = await this.store.find(tenantId, id, tx);
    if (!c) return [];
    const { changes, events } = await decide(c);
    if (Object.keys(changes).length > 0) await this.store.update(tenantId, id, changes, tx);
    return events;
  }
}

interface Decision {
  changes: Partial<ConversationEntity>;
  events: StoredEvent[];
}

const NOTHING: Decision = { changes: {}, events: [] };

function rosterOf(team: TeamRow): TeamRoster {
  return { members: team.members, routing: team.routing, capacity: team.capacity_per_member, lastAssigned: team.last_assigned };
}

/** The team's targets for a handoff at `queuedAt`, and the first of them to check. */
function slaDue(team: TeamRow, queuedAt: Date): Pick<ConversationEntity, 'slaFirstResponseDueAt' | 'slaResolutionDueAt' | 'slaCheckAt'> {
  const after = (seconds: number | undefined) => (seconds ? new Date(queuedAt.getTime() + seconds * 1000) : null);
  const first = after(team.sla?.first_response_seconds);
  const resolution = after(team.sla?.resolution_seconds);
  return { slaFirstResponseDueAt: first, slaResolutionDueAt: resolution, slaCheckAt: earliest([first, resolution]) };
}

function earliest(times: (Date | null | undefined)[]): Date | null {
  const set = times.filter((t): t is Date => !!t);
  return set.length > 0 ? new Date(Math.min(...set.map((t) => t.getTime()))) : null;
}

/**
 * A handed-off conversation's targets at `now`: each due one unmet is missed (once); the next check is the earliest
 * target still ahead. A conversation given back to the agent or closed has none left: a closed one met its resolution.
 */
export function slaCheck(c: ConversationEntity, now: Date): { missed: { target: SlaTarget; dueAt: Date }[]; next: Date | null } {
  if (c.state !== 'handed_off') return { missed: [], next: null };
  const breaches = c.slaBreaches ?? [];
  const responded = !!(c.memberRepliedAt && c.queuedAt && c.memberRepliedAt >= c.queuedAt);
  const open: { target: SlaTarget; dueAt: Date }[] = [];
  if (c.slaFirstResponseDueAt && !responded && !breaches.includes('first_response')) open.push({ target: 'first_response', dueAt: c.slaFirstResponseDueAt });
  if (c.slaResolutionDueAt && !breaches.includes('resolution')) open.push({ target: 'resolution', dueAt: c.slaResolutionDueAt });
  return { missed: open.filter((t) => t.dueAt <= now), next: earliest(open.filter((t) => t.dueAt > now).map((t) => t.dueAt)) };
}
