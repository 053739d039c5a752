import { Injectable } from '@nestjs/common';
import { CALENDAR_FEED_TOKEN_PATTERN, notFoundProblem, type CalendarFeedToken } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { randomBytes } from 'node:crypto';
import { InboxLinks } from '../conversations/inbox-events';
import { renderCalendar, type FeedAppointment } from './calendar-ics';
import { CalendarFeedsStore, type FeedAppointmentRow } from './calendar-feeds.store';

/** The feed reaches back this far, so a subscriber still sees the recent past. */
const FEED_PAST_DAYS = 90;
/** Upper bound of events in one feed: the document travels in one Kafka reply (1 MB), a VEVENT takes ~500 bytes. */
export const FEED_MAX_EVENTS = 1500;

/** 256 random bits, base64url (43 characters): unguessable, and safe in a URL path. */
const newToken = () => randomBytes(32).toString('base64url');

/** The tenant's secret iCalendar feed of its appointments (CONTRACT.md §14, Integrations). */
@Injectable()
export class CalendarFeedService {
  constructor(
    private readonly feeds: CalendarFeedsStore,
    private readonly links: InboxLinks,
  ) {}

  /** The tenant's feed token, made on first asking (two racing first asks agree on one). */
  async tokenOf(tenantId: string): Promise<CalendarFeedToken> {
    return { token: await this.feeds.tokenOf(tenantId, newToken()) };
  }

  /** Replaces the tenant's token: the old feed URL stops answering at once. */
  async rotate(tenantId: string): Promise<CalendarFeedToken> {
    const token = newToken();
    await this.feeds.replaceToken(tenantId, token);
    return { token };
  }

  /** The feed the token opens, as RFC 5545 text; 404 for a token that is not (or no longer) any tenant's. */
  async render(token: string): Promise<{ ics: string }> {
    const unknown = () => new ProblemException(notFoundProblem('Calendar feed'));
    if (!CALENDAR_FEED_TOKEN_PATTERN.test(token)) throw unknown();
    const tenantId = await this.feeds.tenantOf(token);
    if (!tenantId) throw unknown();
    const rows = await this.feeds.appointments(tenantId, FEED_PAST_DAYS, FEED_MAX_EVENTS);
    return { ics: renderCalendar(rows.map(toFeedAppointment), (id) => this.links.conversation(id)) };
  }
}

function toFeedAppointment(row: FeedAppointmentRow): FeedAppointment {
  return {
    id: row.id,
    agentName: row.agent_name,
    conversationId: row.conversation_id,
    customer: row.customer,
    startsAt: new Date(row.starts_at),
    endsAt: new Date(row.ends_at),
    status: row.status,
    createdAt: new Date(row.created_at),
  };
}
