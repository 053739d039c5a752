import type { DocumentRecord } from '@parley/contracts';
import type { DocumentEntity } from './document.entity';

export function toDocumentRecord(d: DocumentEntity): DocumentRecord {
  return {
    id: d.id,
    title: d.title,
    source: d.source,
    url: d.url,
    status: d.status,
    chunks: d.chunks,
    error: d.error,
    refresh: d.refresh,
    last_refresh:
      d.lastRefreshAt && d.lastRefreshStatus
        ? { at: d.lastRefreshAt.toISOString(), status: d.lastRefreshStatus, ...(d.lastRefreshError ? { error: d.lastRefreshError } : {}) }
        : null,
    next_refresh_at: d.nextRefreshAt ? d.nextRefreshAt.toISOString() : null,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}
