import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { CannedReplyRecord } from '@parley/contracts';
import { DataSource, QueryFailedError } from 'typeorm';

/** A `canned_replies` row as raw SQL returns it. */
interface CannedReplyRow {
  id: string;
  shortcut: string;
  text: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, shortcut, text, created_at, updated_at';

/** The shortcut is taken by another of the tenant's replies. */
export class ShortcutTakenError extends Error {}

/** The tenant's canned replies in SQL; every statement is scoped by tenant. */
@Injectable()
export class CannedRepliesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(tenantId: string, id: string, shortcut: string, text: string): Promise<CannedReplyRecord> {
    const [row]: CannedReplyRow[] = await this.unique(() =>
      this.db.query(`INSERT INTO canned_replies (id, tenant_id, shortcut, text) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`, [id, tenantId, shortcut, text]),
    );
    return toRecord(row);
  }

  /**
   * By shortcut, after `afterShortcut` (the picker's order, and a stable cursor: shortcuts are unique). Each word of
   * `words` must be in the shortcut or the text, case and accents ignored.
   */
  async list(tenantId: string, words: string[], afterShortcut: string | null, take: number): Promise<CannedReplyRecord[]> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (afterShortcut !== null) where.push(`shortcut > ${param(afterShortcut)}`);
    for (const word of words) {
      const pattern = param(`%${escapeLike(word)}%`);
      where.push(`(search_unaccent(shortcut) ILIKE search_unaccent(${pattern}) OR search_unaccent(text) ILIKE search_unaccent(${pattern}))`);
    }
    const rows: CannedReplyRow[] = await this.db.query(`SELECT ${COLUMNS} FROM canned_replies WHERE ${where.join(' AND ')} ORDER BY shortcut LIMIT ${take}`, params);
    return rows.map(toRecord);
  }

  async find(tenantId: string, id: string): Promise<CannedReplyRecord | null> {
    const [row]: CannedReplyRow[] = await this.db.query(`SELECT ${COLUMNS} FROM canned_replies WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return row ? toRecord(row) : null;
  }

  /** Only the fields given change; null when the tenant has no such reply. */
  async update(tenantId: string, id: string, change: { shortcut?: string; text?: string }): Promise<CannedReplyRecord | null> {
    const [rows]: [CannedReplyRow[]] = await this.unique(() =>
      this.db.query(
        `UPDATE canned_replies SET shortcut = COALESCE($3, shortcut), text = COALESCE($4, text), updated_at = now()
          WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [tenantId, id, change.shortcut ?? null, change.text ?? null],
      ),
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const [rows]: [unknown[]] = await this.db.query(`DELETE FROM canned_replies WHERE tenant_id = $1 AND id = $2 RETURNING id`, [tenantId, id]);
    return rows.length > 0;
  }

  /** Runs a write, turning the unique shortcut's violation into ShortcutTakenError. */
  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      const constraint = err instanceof QueryFailedError ? (err.driverError as { constraint?: string }).constraint : undefined;
      if (constraint === 'canned_replies_shortcut') throw new ShortcutTakenError();
      throw err;
    }
  }
}

function escapeLike(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function toRecord(row: CannedReplyRow): CannedReplyRecord {
  return {
    id: row.id,
    shortcut: row.shortcut,
    text: row.text,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
