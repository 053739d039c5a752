import type { ParleyClient, components } from '@parley/api-client';
import { unwrap } from './http';

// Canned replies (CONTRACT.md §18): the team's ready answers, inserted in the inbox's composer.

export type CannedReply = components['schemas']['CannedReply'];

export function createCannedRepliesApi(api: ParleyClient) {
  return {
    /** By shortcut; `q` keeps those with its words in the shortcut or the text. */
    listCannedReplies: (q?: string) => unwrap(api.GET('/api/v1/canned-replies', { params: { query: { limit: 100, ...(q ? { q } : {}) } } })),
    createCannedReply: (body: { shortcut: string; text: string }) => unwrap(api.POST('/api/v1/canned-replies', { body })),
    updateCannedReply: (id: string, body: { shortcut?: string; text?: string }) => unwrap(api.PATCH('/api/v1/canned-replies/{id}', { params: { path: { id } }, body })),
    deleteCannedReply: (id: string) => unwrap(api.DELETE('/api/v1/canned-replies/{id}', { params: { path: { id } } })),
  };
}
