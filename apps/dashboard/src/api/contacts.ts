import type { ParleyClient, paths } from '@parley/api-client';
import { unwrap } from './http';

// Contacts and the sales pipeline (CONTRACT.md §14), owned by crm-service.

export type Contact = paths['/api/v1/contacts/{id}']['get']['responses'][200]['content']['application/json'];
export type ContactActivity = paths['/api/v1/contacts/{id}/activities']['get']['responses'][200]['content']['application/json']['data'][number];
export type Deal = paths['/api/v1/deals/{id}']['get']['responses'][200]['content']['application/json'];
export type Company = paths['/api/v1/companies/{id}']['get']['responses'][200]['content']['application/json'];
export type Pipeline = paths['/api/v1/pipelines']['get']['responses'][200]['content']['application/json']['data'][number];

export type ContactChange = NonNullable<paths['/api/v1/contacts/{id}']['patch']['requestBody']>['content']['application/json'];
export type NewDeal = NonNullable<paths['/api/v1/deals']['post']['requestBody']>['content']['application/json'];
export type DealChange = NonNullable<paths['/api/v1/deals/{id}']['patch']['requestBody']>['content']['application/json'];

export type ContactImport = paths['/api/v1/contacts/import/{job_id}']['get']['responses'][200]['content']['application/json'];

export function createContactsApi(api: ParleyClient) {
  return {
    /** Queues a CSV import (one `file` part); its progress is `contactImport(job_id)`. */
    importContacts: (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return unwrap(api.POST('/api/v1/contacts/import', { body: form as never, bodySerializer: (body: unknown) => body as FormData }));
    },
    contactImport: (job_id: string) => unwrap(api.GET('/api/v1/contacts/import/{job_id}', { params: { path: { job_id } } })),
    listContacts: (filters: { q?: string; tag?: string }) => unwrap(api.GET('/api/v1/contacts', { params: { query: { limit: 100, ...filters } } })),
    contact: (id: string) => unwrap(api.GET('/api/v1/contacts/{id}', { params: { path: { id } } })),
    updateContact: (id: string, body: ContactChange) => unwrap(api.PATCH('/api/v1/contacts/{id}', { params: { path: { id } }, body })),
    contactActivities: (id: string, cursor?: string) =>
      unwrap(api.GET('/api/v1/contacts/{id}/activities', { params: { path: { id }, query: { limit: 20, ...(cursor ? { cursor } : {}) } } })),
    addContactNote: (id: string, text: string) => unwrap(api.POST('/api/v1/contacts/{id}/activities', { params: { path: { id } }, body: { type: 'note', text } })),
    listDeals: (query: { contact_id?: string; pipeline_id?: string }) => unwrap(api.GET('/api/v1/deals', { params: { query: { limit: 100, ...query } } })),
    listCompanies: () => unwrap(api.GET('/api/v1/companies', { params: { query: { limit: 100 } } })),
    createCompany: (body: { name: string; domain?: string }) => unwrap(api.POST('/api/v1/companies', { body })),
    updateCompany: (id: string, body: { name?: string; domain?: string | null }) => unwrap(api.PATCH('/api/v1/companies/{id}', { params: { path: { id } }, body })),
    listPipelines: () => unwrap(api.GET('/api/v1/pipelines')),
    moveDeal: (id: string, stage: string) => unwrap(api.PATCH('/api/v1/deals/{id}', { params: { path: { id } }, body: { stage } })),
    createDeal: (body: NewDeal) => unwrap(api.POST('/api/v1/deals', { body })),
    updateDeal: (id: string, body: DealChange) => unwrap(api.PATCH('/api/v1/deals/{id}', { params: { path: { id } }, body })),
  };
}
