import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CALENDAR_FEED_TOKEN_PATTERN, notFoundProblem, type CalendarFeedToken } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { InboxLinks } from '../conversations/inbox-events';
import { renderCalendar, type FeedAppointment } from './calendar-ics';

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
    @InjectDataSource() private readonly db: DataSource,
    private readonly links: InboxLinks,
  ) {}

  /** The tenant's feed token, made on first asking (two racing first asks agree on one). */
  async tokenOf(tenantId: string): Promise<CalendarFeedToken> {
    await this.db.query(`INSERT INTO calendar_feeds (tenant_id, token) VALUES ($1, $2) ON CONFLICT (tenant_id) DO NOTHING`, [tenantId, newToken()]);
    const [row]: { token: string }[] = await this.db.query(`SELECT token FROM calendar_feeds WHERE tenant_id = $1`, [tenantId]);
    return { token: row.token };
  }

  /** Replaces the tenant's token: the old feed URL stops answering at once. */
  async rotate(tenantId: string): Promise<CalendarFeedToken> {
    const token = newToken();
    await this.db.query(
      `INSERT INTO calendar_feeds (tenant_id, token) VALUES ($1, $2)
       ON CONFLICT (tenant_id) DO UPDATE SET token = EXCLUDED.token, created_at = now()`,
      [tenantId, token],
    );
    return { token };
  }

  /** The feed the token opens, as RFC 5545 text; 404 for a token that is not (or no longer) any tenant's. */
  async render(token: string): Promise<{ ics: string }> {
    const unknown = () => new ProblemException(notFoundProblem('Calendar feed'));
    if (!CALENDAR_FEED_TOKEN_PATTERN.test(token)) throw unknown();
    const [feed]: { tenant_id: string }[] = await this.db.query(`SELECT tenant_id FROM calendar_feeds WHERE token = $1`, [token]);
    if (!feed) throw unknown();
    const rows: AppointmentRow[] = await this.db.query(
      `SELECT id, agent_name, conversation_id, customer, starts_at, ends_at, status, created_at
         FROM appointments
        WHERE tenant_id = $1 AND starts_at >= now() - make_interval(days => $2)
        ORDER BY starts_at, id
        LIMIT $3`,
      [feed.tenant_id, FEED_PAST_DAYS, FEED_MAX_EVENTS],
    );
    return { ics: renderCalendar(rows.map(toFeedAppointment), (id) => this.links.conversation(id)) };
  }
}

interface AppointmentRow {
  id: string;
  agent_name: string;
  conversation_id: string;
  customer: string;
  starts_at: Date;
  ends_at: Date;
  status: 'booked' | 'cancelled';
  created_at: Date;
}

function toFeedAppointment(row: AppointmentRow): FeedAppointment {
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
