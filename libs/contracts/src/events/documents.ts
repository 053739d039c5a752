import type { EventEnvelope } from './envelope';

export type DocumentSource = 'text' | 'url' | 'file';
export type DocumentStatus = 'processing' | 'ready' | 'failed';

/** The public document record (CONTRACT.md §11). */
export interface DocumentRecord {
  id: string;
  title: string;
  source: DocumentSource;
  /** The fetched address of a `url` document; null otherwise. */
  url: string | null;
  status: DocumentStatus;
  /** Passages indexed once `ready`; null before. */
  chunks: number | null;
  /** Why processing failed (`failed` only). */
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** One indexed passage of a document. */
export interface DocumentPassageData {
  /** `${document_id}#${index}`. */
  id: string;
  /** The headings above the passage, outermost first; empty when there are none. */
  headings: string[];
  text: string;
}

/**
 * `document.changed`: a document's passages once it is ready, or `passages: null` when it (or its agent) was deleted.
 * Compacted by document, so the topic holds the current passages of every live document.
 */
export interface DocumentChangedData {
  tenant_id: string;
  document_id: string;
  agent_id: string;
  agent_name: string;
  title: string;
  passages: DocumentPassageData[] | null;
}

export type DocumentChangedEvent = EventEnvelope<'document.changed', DocumentChangedData>;
