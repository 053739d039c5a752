import type { ListCursor } from '@parley/service-kit';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * One page of a tenant's rows, newest first by their time-ordered id, after the row its cursor names. A cursor this
 * list did not hand out → 400 naming `cursor`.
 */
export async function pageAfter<T extends ObjectLiteral & { id: string }>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  limit: number,
  cursor: string | null,
  cursors: ListCursor,
): Promise<{ rows: T[]; nextCursor: string | null }> {
  const after = cursors.after(cursor);
  if (after !== null) qb.andWhere(`${alias}.id < :after`, { after });
  const rows = await qb.orderBy(`${alias}.id`, 'DESC').take(limit + 1).getMany();
  return { rows: rows.slice(0, limit), nextCursor: cursors.next(rows, limit, (row) => row.id) };
}
