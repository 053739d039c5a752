import type { EventEnvelope } from './envelope';

export type DocumentSource = 'text' | 'url' | 'file';
export type DocumentStatus = 'processing' | 'ready' | 'failed';

/** How often a `url` document is fetched again (CONTRACT.md §19); `off` for the others. */
export const DOCUMENT_REFRESH_SCHEDULES = ['off', 'daily', 'weekly'] as const;
export type DocumentRefreshSchedule = (typeof DOCUMENT_REFRESH_SCHEDULES)[number];

/** The latest refresh of a `url` document: the page was the same, changed (new passages), or could not be fetched. */
export interface DocumentLastRefresh {
  at: string;
  /** `updated`: the page changed and its passages replaced the old ones; `failed`: the last good passages are kept. */
  status: 'unchanged' | 'updated' | 'failed';
  /** Why it failed (`failed` only): the document keeps its last good passages. */
  error?: string;
}

/** The public document record (CONTRACT.md §11). */
export interface DocumentRecord {
  /** @idPrefix doc */
  id: string;
  title: string;
  source: DocumentSource;
  /**
   * The fetched address of a `url` document; null otherwise.
   * @apiFormat uri
   */
  url: string | null;
  status: DocumentStatus;
  /**
   * Passages indexed once `ready`; null before.
   * @apiType integer
   */
  chunks: number | null;
  /** Why processing failed (`failed` only). */
  error: string | null;
  /** How often a `url` document is fetched again; `off` for the others (CONTRACT.md §19). */
  refresh: DocumentRefreshSchedule;
  /** The latest refresh; null before the first. */
  last_refresh: DocumentLastRefresh | null;
  /** When it is fetched next (null: never). */
  next_refresh_at: string | null;
  created_at: string;
  updated_at: string;
}

export const DOCUMENT_IMPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type DocumentImportStatus = (typeof DOCUMENT_IMPORT_STATUSES)[number];

/**
 * A sitemap import (CONTRACT.md §19): every page under the sitemap becomes a `url` document of the agent (processed
 * like any other), except those robots.txt disallows, the address rules refuse, the agent has already, or past the
 * limits; `skipped` says which and why (the first 50).
 */
export interface DocumentImportRecord {
  /** @idPrefix imp */
  import_id: string;
  agent: string;
  /** @apiFormat uri */
  sitemap_url: string;
  refresh: DocumentRefreshSchedule;
  /** @apiType integer */
  max_pages: number;
  status: DocumentImportStatus;
  /**
   * Pages the sitemap lists under it (null until read).
   * @apiType integer
   */
  pages_found: number | null;
  /**
   * Documents made, one per page (each `processing`, then `ready` or `failed` as any document).
   * @apiType integer
   */
  documents_added: number;
  /** @apiType integer */
  pages_skipped: number;
  /** Pages left out and why (the first 50). */
  skipped: { url: string; reason: string }[];
  /** Why the import failed (`failed` only): the sitemap could not be read. */
  error: string | null;
  created_at: string;
  completed_at: string | null;
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
