import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** SQL of voice usage (the call's once-only record is metering's processed events). */
@Injectable()
export class VoiceMinutesStore {
  /** Adds a call's billable minutes to the tenant's `voice`/`voice_minute` usage of `day`. */
  async addMinutes(tenantId: string, day: string, minutes: number, tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO usage_daily (tenant_id, day, channel, category, quantity) VALUES ($1, $2, 'voice', 'voice_minute', $3)
       ON CONFLICT (tenant_id, day, channel, category) DO UPDATE SET quantity = usage_daily.quantity + EXCLUDED.quantity`,
      [tenantId, day, minutes],
    );
  }
}
