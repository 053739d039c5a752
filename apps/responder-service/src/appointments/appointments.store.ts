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
  /** Start of this conversation's booking that moves to the new slot (it keeps its id), or null for a new booking. */
  replaces: string | null;
}

/** A slot held: a new appointment, or this conversation's appointment moved there (same id; `previous` its old times). */
export type HeldSlot =
  | { change: 'booked'; appointment: AppointmentRecord }
  | { change: 'rescheduled'; appointment: AppointmentRecord; previous: { starts_at: string; ends_at: string } };

/** PostgreSQL's unique_violation: the slot is held by another booking. */
const UNIQUE_VIOLATION = '23505';

/**
 * Appointments as stored: the agent's calendar the booking skill reads, slots held under a unique index (never booked
 * twice), moves and cancellations of a conversation's booking inside its reply's transaction, and the tenant's list.
 */
@Injectable()
export class AppointmentsStore {
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
   * racing insert or move waits for the other transaction and then finds the conflict, so a slot is never booked twice.
   * A move (`replaces`) changes the times of the conversation's booked appointment, keeping its id; when that one is
   * no longer booked, the slot is booked anew.
   */
  async book(tx: EntityManager, tenantId: string, input: BookingInput): Promise<HeldSlot | null> {
    if (input.replaces) {
      const moved = await this.move(tx, tenantId, input, input.replaces);
      if (moved !== 'not-found') return moved;
    }
    const rows: AppointmentRow[] = await tx.query(
      `INSERT INTO appointments (id, tenant_id, agent_name, conversation_id, customer, starts_at, ends_at, timezone, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'booked')
       ON CONFLICT (tenant_id, agent_name, starts_at) WHERE status = 'booked' DO NOTHING
       RETURNING id, customer, starts_at, ends_at, timezone, status, conversation_id`,
      [newId('apt'), tenantId, input.agentName, input.conversationId, input.customer, input.startsAt, input.endsAt, input.timezone],
    );
    return rows.length === 0 ? null : { change: 'booked', appointment: toAppointmentRecord(rows[0]) };
  }

  /** Moves the conversation's appointment at `from` to the input's slot (null: the slot is taken). */
  private async move(tx: EntityManager, tenantId: string, input: BookingInput, from: string): Promise<HeldSlot | null | 'not-found'> {
    // An UPDATE has no ON CONFLICT: a taken slot raises, and the savepoint keeps the transaction usable.
    await tx.query('SAVEPOINT move_appointment');
    let rows: (AppointmentRow & { previous_starts_at: Date; previous_ends_at: Date })[];
    try {
      // TypeORM answers an UPDATE with [rows, count].
      [rows] = await tx.query(
        `WITH old AS (
           SELECT id, starts_at, ends_at FROM appointments
            WHERE tenant_id = $1 AND conversation_id = $2 AND starts_at = $3 AND status = 'booked'
            FOR UPDATE)
         UPDATE appointments a SET starts_at = $4, ends_at = $5, timezone = $6
           FROM old WHERE a.id = old.id
         RETURNING a.id, a.customer, a.starts_at, a.ends_at, a.timezone, a.status, a.conversation_id,
           old.starts_at AS previous_starts_at, old.ends_at AS previous_ends_at`,
        [tenantId, input.conversationId, from, input.startsAt, input.endsAt, input.timezone],
      );
      await tx.query('RELEASE SAVEPOINT move_appointment');
    } catch (err) {
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      await tx.query('ROLLBACK TO SAVEPOINT move_appointment');
      return null;
    }
    if (rows.length === 0) return 'not-found';
    const previous = { starts_at: new Date(rows[0].previous_starts_at).toISOString(), ends_at: new Date(rows[0].previous_ends_at).toISOString() };
    return { change: 'rescheduled', appointment: toAppointmentRecord(rows[0]), previous };
  }

  /** Cancels the conversation's booked appointment starting at `startsAt`; null when there is none (already cancelled). */
  async cancel(tx: EntityManager, tenantId: string, conversationId: string, startsAt: string): Promise<AppointmentRecord | null> {
    // TypeORM answers an UPDATE with [rows, count].
    const [rows]: [AppointmentRow[], number] = await tx.query(
      `UPDATE appointments SET status = 'cancelled'
        WHERE tenant_id = $1 AND conversation_id = $2 AND starts_at = $3 AND status = 'booked'
        RETURNING id, customer, starts_at, ends_at, timezone, status, conversation_id`,
      [tenantId, conversationId, startsAt],
    );
    return rows.length === 0 ? null : toAppointmentRecord(rows[0]);
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
