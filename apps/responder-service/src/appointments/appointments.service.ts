import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, type AppointmentRecord, type Page } from '@parley/contracts';
import { ListCursors } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { pageAfter } from '../common/pages';
import type { BookingCalendar } from '../replies/reply-engine';
import { AppointmentEntity } from './appointment.entity';

export interface BookingInput {
  agentName: string;
  conversationId: string;
  customer: string;
  startsAt: string;
  endsAt: string;
  timezone: string;
  /** Start of this conversation's booking that the new one replaces (cancelled once the new slot is held). */
  replaces: string | null;
}

@Injectable()
export class AppointmentsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cursors: ListCursors,
  ) {}

  /** The agent's calendar as the skills read it, through the caller's transaction (or outside one, for a preview). */
  calendar(manager: EntityManager, tenantId: string, agentName: string): BookingCalendar {
    return {
      busy: async (from, to) => {
        const rows: { starts_at: Date }[] = await manager.query(
          `SELECT starts_at FROM appointments WHERE tenant_id = $1 AND agent_name = $2 AND status = 'booked' AND starts_at >= $3 AND starts_at < $4`,
          [tenantId, agentName, from, to],
        );
        return new Set(rows.map((r) => new Date(r.starts_at).getTime()));
      },
    };
  }

  /**
   * Holds the slot, or returns null when another conversation holds it. The unique index decides under concurrency: a
   * racing insert waits for the other transaction and then finds the conflict, so a slot is never booked twice.
   */
  async book(tx: EntityManager, tenantId: string, input: BookingInput): Promise<AppointmentRecord | null> {
    const rows: AppointmentRow[] = await tx.query(
      `INSERT INTO appointments (id, tenant_id, agent_name, conversation_id, customer, starts_at, ends_at, timezone, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'booked')
       ON CONFLICT (tenant_id, agent_name, starts_at) WHERE status = 'booked' DO NOTHING
       RETURNING id, customer, starts_at, ends_at, timezone, status, conversation_id`,
      [newId('apt'), tenantId, input.agentName, input.conversationId, input.customer, input.startsAt, input.endsAt, input.timezone],
    );
    if (rows.length === 0) return null;
    if (input.replaces) {
      await tx.query(
        `UPDATE appointments SET status = 'cancelled'
          WHERE tenant_id = $1 AND conversation_id = $2 AND starts_at = $3 AND status = 'booked'`,
        [tenantId, input.conversationId, input.replaces],
      );
    }
    return toAppointmentRecord(rows[0]);
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<AppointmentRecord>> {
    const qb = this.db.getRepository(AppointmentEntity).createQueryBuilder('a').where('a.tenant_id = :tenantId', { tenantId });
    const page = await pageAfter(qb, 'a', limit, cursor, this.cursors.of(tenantId, 'appointments'));
    return {
      data: page.rows.map((e) =>
        toAppointmentRecord({
          id: e.id,
          customer: e.customer,
          starts_at: e.startsAt,
          ends_at: e.endsAt,
          timezone: e.timezone,
          status: e.status,
          conversation_id: e.conversationId,
        }),
      ),
      next_cursor: page.nextCursor,
    };
  }
}

interface AppointmentRow {
  id: string;
  customer: string;
  starts_at: Date;
  ends_at: Date;
  timezone: string;
  status: 'booked' | 'cancelled';
  conversation_id: string;
}

function toAppointmentRecord(row: AppointmentRow): AppointmentRecord {
  return {
    id: row.id,
    customer: row.customer,
    starts_at: new Date(row.starts_at).toISOString(),
    ends_at: new Date(row.ends_at).toISOString(),
    timezone: row.timezone,
    status: row.status,
    conversation_id: row.conversation_id,
  };
}
