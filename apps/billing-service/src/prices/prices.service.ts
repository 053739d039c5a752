import { Injectable } from '@nestjs/common';
import { SetPricesBody, type PriceRecord } from '@parley/contracts';
import { validateDto } from '@parley/service-kit';
import { BalanceView } from '../balance-view/balance-view';
import { PricesStore, type PriceRow } from './prices.store';

const toPriceRecord = (row: PriceRow): PriceRecord => ({ ...row, updated_at: row.updated_at.toISOString() });

/** The price book (CONTRACT.md §16): a unit price per plan and category, in an explicit currency. */
@Injectable()
export class PricesService {
  constructor(
    private readonly store: PricesStore,
    private readonly view: BalanceView,
  ) {}

  async list(): Promise<{ data: PriceRecord[] }> {
    const rows = await this.store.list();
    return { data: rows.map(toPriceRecord) };
  }

  /** Sets the given lines (an operator's `PUT /admin/v1/prices`); lines not given keep their price. */
  async set(rawBody: unknown): Promise<{ data: PriceRecord[] }> {
    const body = await validateDto(SetPricesBody, rawBody);
    await this.store.upsert(body.prices);
    await this.view.pushPrices();
    return this.list();
  }
}
