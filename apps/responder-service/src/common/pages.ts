import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** One page of a tenant's rows, newest first by their time-ordered id; the cursor is the last id of the previous page. */
export async function pageAfter<T extends ObjectLiteral & { id: string }>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  limit: number,
  cursor: string | null,
): Promise<{ rows: T[]; nextCursor: string | null }> {
  if (cursor) qb.andWhere(`${alias}.id < :cursor`, { cursor });
  const rows = await qb.orderBy(`${alias}.id`, 'DESC').take(limit + 1).getMany();
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: rows.length > limit ? page[page.length - 1].id : null };
}
