import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A price book line as the view's hash keeps it: `plan:category` and the unit price in millionths. */
export interface ViewPriceRow {
  field: string;
  micros: string;
}

/** A wallet as the gateway's view shows it: millionths, the view version, the free sends left this month. */
export interface ViewWalletRow {
  tenant_id: string;
  balance: string;
  version: string;
  free_left: string;
}

/** The reads behind the gateway's view of the wallets and the price book. */
@Injectable()
export class BalanceViewStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  prices(): Promise<ViewPriceRow[]> {
    return this.db.query(`SELECT plan || ':' || category AS field, (unit_price * 1000000)::bigint::text AS micros FROM prices`) as Promise<ViewPriceRow[]>;
  }

  /** The wallets of `tenantIds` that exist, in one statement; `freeAllowance`: the month's free messages on any plan. */
  wallets(tenantIds: readonly string[], freeAllowance: number): Promise<ViewWalletRow[]> {
    return this.db.query(
      `SELECT w.tenant_id, (w.balance * 1000000)::bigint::text AS balance, w.view_version::text AS version,
                greatest(0, $2::int - (SELECT coalesce(sum(quantity), 0) FROM usage_daily
                                        WHERE tenant_id = w.tenant_id AND day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date AND category NOT IN ('voice_minute', 'llm_token')))::bigint::text AS free_left
           FROM wallets w WHERE w.tenant_id = ANY($1)`,
      [tenantIds, freeAllowance],
    ) as Promise<ViewWalletRow[]>;
  }
}
