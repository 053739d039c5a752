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
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}
