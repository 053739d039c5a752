import type { ContactAttributes, ContactRecord } from '@parley/contracts';

/** A `contacts` row as raw SQL returns it. */
export interface ContactRow {
  id: string;
  tenant_id: string;
  phone: string | null;
  email: string | null;
  name: string | null;
  company_id: string | null;
  tags: string[];
  attributes: ContactAttributes;
  opted_out: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The columns every contact query returns (`search_text` and bookkeeping stay inside). */
export const CONTACT_COLUMNS = 'id, tenant_id, phone, email, name, company_id, tags, attributes, opted_out, created_at, updated_at';

/** The public contact (CONTRACT.md §14). */
export function toContactRecord(row: ContactRow): ContactRecord {
  return {
    id: row.id,
    phone: row.phone,
    email: row.email,
    name: row.name,
    company_id: row.company_id,
    tags: row.tags,
    attributes: row.attributes,
    opted_out: row.opted_out,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
