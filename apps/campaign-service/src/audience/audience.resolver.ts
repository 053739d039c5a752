import { Injectable } from '@nestjs/common';
import { RpcProblemError, RpcClient } from '@parley/kafka';
import type { CampaignAudience, ContactRecord, Page } from '@parley/contracts';

/** crm-service's largest page (`contacts.export-page`, optionally filtered by a tag). */
const EXPORT_PAGE = 1000;

/**
 * The audience's contacts as crm-service has them now (CONTRACT.md §15): the contacts named in `contact_ids`, plus
 * those carrying every tag of `tags` whose attributes equal every one of `attributes` (filters given), each once.
 * Paged through `contacts.export-page` (1000 a page: a 100,000-contact audience in 100 calls), filtered there by the
 * first tag; the other filters are applied here.
 *
 * Yielded a page at a time, never as one list: a 100,000-contact audience held whole (with its filled templates) took
 * campaign-service's live heap past 150 MB during a start, and V8 sized the old generation from that peak, so the
 * garbage of the sending that followed was not collected until the campaign ended (issue 19: 384 MiB RSS).
 */
@Injectable()
export class AudienceResolver {
  constructor(private readonly rpc: RpcClient) {}

  async *pages(tenantId: string, audience: CampaignAudience, requestId?: string): AsyncGenerator<ContactRecord[]> {
    // the named contacts (a bounded list): a tag page that holds one of them again leaves it out
    const named = new Set<string>();
    let page: ContactRecord[] = [];
    for (const id of new Set(audience.contact_ids ?? [])) {
      const contact = await this.rpc.request('contacts.get', { tenant_id: tenantId, id }, { requestId }).catch((err: unknown) => {
        if (err instanceof RpcProblemError && err.problem.status === 404) return null; // deleted since: not messaged
        throw err;
      });
      if (!contact || named.has(contact.id)) continue;
      named.add(contact.id);
      page.push(contact);
      if (page.length >= EXPORT_PAGE) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
    const tags = audience.tags ?? [];
    const attributes = Object.entries(audience.attributes ?? {});
    if (tags.length === 0 && attributes.length === 0) return;
    let cursor: string | null = null;
    do {
      const exported: Page<ContactRecord> = await this.rpc.request(
        'contacts.export-page',
        { tenant_id: tenantId, limit: EXPORT_PAGE, cursor, ...(tags[0] ? { tag: tags[0] } : {}) },
        { requestId },
      );
      const matching = exported.data.filter(
        (contact) => !named.has(contact.id) && tags.every((tag) => contact.tags.includes(tag)) && attributes.every(([key, value]) => contact.attributes[key] === value),
      );
      if (matching.length > 0) yield matching;
      cursor = exported.next_cursor;
    } while (cursor !== null);
  }
}
