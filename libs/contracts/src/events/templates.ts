import type { EventEnvelope } from './envelope';

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export type TemplateStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

/** A message template (CONTRACT.md §13) as the API answers it. `components` are in the Cloud API's shape. */
export interface TemplateRecord {
  /** @idPrefix tpl */
  id: string;
  /** @idPrefix chn */
  channel_id: string;
  name: string;
  language: string;
  category: TemplateCategory;
  /**
   * @apiSchema {items: {type: 'object', additionalProperties: true}}
   * @apiDescription Cloud API template components (HEADER, BODY, FOOTER, BUTTONS).
   */
  components: unknown[];
  status: TemplateStatus;
  /** Why the provider rejected it; null otherwise. */
  reason: string | null;
  created_at: string;
  updated_at: string;
}

/** `template.status` (public webhook body): the provider approved or rejected a template. */
export interface TemplateStatusData {
  event: 'template.status';
  tenant_id: string;
  channel: 'whatsapp';
  template: TemplateRecord;
  at: string;
}

export type TemplateStatusEvent = EventEnvelope<'template.status', TemplateStatusData>;
