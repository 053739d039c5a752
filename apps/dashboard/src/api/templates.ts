import type { ParleyClient, components } from '@parley/api-client';
import { unwrap } from './http';

// Message templates (CONTRACT.md §13): submitted to the provider for review, then sent outside the 24-hour window.

type Schemas = components['schemas'];
export type Template = Schemas['Template'];
export type TemplateStatus = Template['status'];
export type TemplateCategory = Template['category'];
/** A component of a template's definition, in the Cloud API's shape (`{type: "BODY", text, example}`, …). */
export type TemplateComponent = Template['components'][number];
export type CreateTemplateBody = Omit<Schemas['CreateTemplateBody'], 'tenant_id'>;
/** A template send: its name, language and the parameters filling its placeholders (Cloud API send shape). */
export type TemplateSend = Schemas['TemplateDto'];

export const TEMPLATE_CATEGORIES: readonly TemplateCategory[] = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];

export function createTemplatesApi(api: ParleyClient) {
  return {
    listTemplates: () => unwrap(api.GET('/api/v1/templates', { params: { query: { limit: 100 } } })),
    createTemplate: (body: CreateTemplateBody) => unwrap(api.POST('/api/v1/templates', { body })),
    deleteTemplate: (id: string) => unwrap(api.DELETE('/api/v1/templates/{id}', { params: { path: { id } } })),
    /** Through `POST /v1/send`, the only way to reach a customer whose 24-hour window is closed; `from` picks the number. */
    sendTemplate: (body: { to: string; template: TemplateSend; from?: string }) => unwrap(api.POST('/v1/send', { body: { channel: 'whatsapp', ...body } })),
  };
}
