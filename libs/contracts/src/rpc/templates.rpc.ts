import type { TemplateCategory, TemplateRecord } from '../events/templates';
import type { TemplateContent } from '../events/messages';
import type { ListQuery, Page, TenantScoped } from './rpc-shapes';

/** Body of `POST /api/v1/templates` once the gateway checked its shape (messaging-service checks the components). */
export interface CreateTemplateRequest {
  name: string;
  language: string;
  category: TemplateCategory;
  components: unknown[];
  channel_id?: string;
}

/** messaging-service's template patterns (CONTRACT.md §12, §13). */
export interface TemplatesRpc {
  /** Submits a template to the channel's provider → PENDING; 400 naming the component rule broken. */
  'templates.create': { service: 'messaging'; request: TenantScoped & { body: CreateTemplateRequest }; response: TemplateRecord };
  'templates.list': { service: 'messaging'; request: TenantScoped & ListQuery; response: Page<TemplateRecord> };
  'templates.get': { service: 'messaging'; request: TenantScoped & { template_id: string }; response: TemplateRecord };
  'templates.delete': { service: 'messaging'; request: TenantScoped & { template_id: string }; response: { deleted: true } };
  /**
   * Whether a `template` send may go (before it is queued): the template is approved on the sending channel in that
   * language and its placeholders are filled (else 400 naming the field), and a marketing one is not to a customer who
   * opted out (else 409 `opted-out`).
   */
  'templates.check-send': { service: 'messaging'; request: TenantScoped & { to: string; from: string | null; template: TemplateContent }; response: { ok: true } };
}
