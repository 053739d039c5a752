import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

export interface TopUpRow {
  id: string;
  tenant_id: string;
  amount: string;
  currency: string;
  session_id: string | null;
  checkout_url: string | null;
  status: 'pending' | 'paid';
  paid_by_event: string | null;
  paid_at: Date | null;
  created_at: Date;
}

/** SQL of wallet top-ups; the tenant id first wherever the tenant is known. */
@Injectable()
export class TopUpsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A pending top-up, before the provider is asked for its session. */
  async insert(tenantId: string, topUp: { id: string; amount: string; currency: string }): Promise<void> {
    await this.db.query(`INSERT INTO top_ups (id, tenant_id, amount, currency) VALUES ($1, $2, $3::numeric, $4)`, [topUp.id, tenantId, topUp.amount, topUp.currency]);
  }

  /** Records the provider's Checkout Session on the top-up; the top-up as it is then. */
  async attachSession(tenantId: string, id: string, session: { id: string; url: string | null }): Promise<TopUpRow> {
    const [[row]] = (await this.db.query(`UPDATE top_ups SET session_id = $2, checkout_url = $3 WHERE id = $1 AND tenant_id = $4 RETURNING *`, [
      id,
      session.id,
      session.url,
      tenantId,
    ])) as [TopUpRow[], number];
    return row;
  }

  /** The tenant's top-up if it is paid, else null. */
  async findPaid(tenantId: string, id: string): Promise<TopUpRow | null> {
    const [row] = (await this.db.query(`SELECT * FROM top_ups WHERE id = $1 AND tenant_id = $2 AND status = 'paid'`, [id, tenantId])) as TopUpRow[];
    return row ?? null;
  }

  /** The top-up of a Checkout Session, whichever tenant's (the provider's webhook names only the session), or null. */
  async findBySession(sessionId: string): Promise<TopUpRow | null> {
    const [row] = (await this.db.query(`SELECT * FROM top_ups WHERE session_id = $1`, [sessionId])) as TopUpRow[];
    return row ?? null;
  }

  /** Marks the top-up paid by the provider's event, in the transaction that credits the wallet. */
  async markPaid(tenantId: string, id: string, eventId: string, tx: EntityManager): Promise<void> {
    await tx.query(`UPDATE top_ups SET status = 'paid', paid_by_event = $2, paid_at = now() WHERE id = $1 AND tenant_id = $3`, [id, eventId, tenantId]);
  }
}
