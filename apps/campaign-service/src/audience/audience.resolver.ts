import { Injectable } from '@nestjs/common';
import { RpcProblemError, RpcClient } from '@parley/kafka';
import type { CampaignAudience, ContactRecord, Page } from '@parley/contracts';

/** crm-service's largest page (`contacts.export-page`, optionally filtered by a tag). */
const EXPORT_PAGE = 1000;

/**
 * The audience's contacts as crm-service has them now (CONTRACT.md §15): the contacts named in `contact_ids`, plus
 * those carrying every tag of `tags` whose attributes equal every one of `attributes` (filters given). Paged through
 * `contacts.export-page` (1000 a page: a 100,000-contact audience in 100 calls), filtered there by the first tag; the
 * other filters are applied here.
 */
@Injectable()
export class AudienceResolver {
  constructor(private readonly rpc: RpcClient) {}

  async resolve(tenantId: string, audience: CampaignAudience, requestId?: string): Promise<ContactRecord[]> {
    const found = new Map<string, ContactRecord>();
    for (const id of audience.contact_ids ?? []) {
      const contact = await this.rpc.request('contacts.get', { tenant_id: tenantId, id }, { requestId }).catch((err: unknown) => {
        if (err instanceof RpcProblemError && err.problem.status === 404) return null; // deleted since: not messaged
        throw err;
      });
      if (contact) found.set(contact.id, contact);
    }
    const tags = audience.tags ?? [];
    const attributes = Object.entries(audience.attributes ?? {});
    if (tags.length > 0 || attributes.length > 0) {
      let cursor: string | null = null;
      do {
        const page: Page<ContactRecord> = await this.rpc.request(
          'contacts.export-page',
          { tenant_id: tenantId, limit: EXPORT_PAGE, cursor, ...(tags[0] ? { tag: tags[0] } : {}) },
          { requestId },
        );
        for (const contact of page.data) {
          const matches = tags.every((tag) => contact.tags.includes(tag)) && attributes.every(([key, value]) => contact.attributes[key] === value);
          if (matches) found.set(contact.id, contact);
        }
        cursor = page.next_cursor;
      } while (cursor !== null);
    }
    return [...found.values()];
  }
}
