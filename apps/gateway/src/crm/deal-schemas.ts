import type { Schema } from '../openapi/dto-schema';

/* The answers of the pipeline and deal routes (CONTRACT.md §14), as the records in @parley/contracts' events/deals.ts. */

const id = (prefix: string): Schema => ({ type: 'string', pattern: `^${prefix}_`, example: `${prefix}_01JD3S4ZC5Q2X8V6N7M9P0R1T2` });
const timestamp: Schema = { type: 'string', format: 'date-time' };
const nullable = (schema: Schema): Schema => ({ ...schema, nullable: true });
const record = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties, required: Object.keys(properties) });
const pageOf = (item: Schema): Schema => record({ data: { type: 'array', items: item }, next_cursor: nullable({ type: 'string' }) });

export const PIPELINE_SCHEMA = record({
  id: id('pip'),
  name: { type: 'string' },
  stages: { type: 'array', items: { type: 'string' }, description: 'In order; deals open in the first.' },
  is_default: { type: 'boolean', description: 'The tenant’s default pipeline (new, qualified, proposal, won, lost), made on first use.' },
  created_at: timestamp,
});

export const PIPELINE_LIST_SCHEMA = record({ data: { type: 'array', items: PIPELINE_SCHEMA, description: 'The default pipeline first, then by age.' } });

export const DEAL_SCHEMA = record({
  id: id('del'),
  title: { type: 'string' },
  contact_id: id('ctc'),
  company_id: nullable(id('cmp')),
  pipeline_id: id('pip'),
  stage: { type: 'string', description: 'One of the pipeline’s stages.' },
  value: nullable(
    record({
      amount: { type: 'string', pattern: '^(0|[1-9]\\d{0,14})(\\.\\d{1,4})?$', example: '1234567.89', description: 'A decimal string, exactly as given.' },
      currency: { type: 'string', pattern: '^[A-Z]{3}$', example: 'EUR', description: 'ISO 4217.' },
    }),
  ),
  owner: nullable(id('usr')),
  lead_id: nullable(id('led')),
  created_at: timestamp,
  updated_at: timestamp,
});

export const DEAL_PAGE_SCHEMA = pageOf(DEAL_SCHEMA);
