import { useEffect, useState, type FormEvent } from 'react';
import type { AgentDocument, DocumentRefresh } from '../api';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { formatTime } from '../components/format';
import { useLiveQuery } from '../components/live-query';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';
import { DocumentFreshness, REFRESH_CHOICES } from './document-freshness';

/** While a document is processing the list is read again this often (processing makes no stream event). */
const PROCESSING_POLL_MS = 2000;
/** The types the API reads, by file extension (browsers often leave `.md` untyped). */
const TYPE_BY_EXTENSION: Record<string, string> = { txt: 'text/plain', md: 'text/markdown', markdown: 'text/markdown', html: 'text/html', htm: 'text/html', pdf: 'application/pdf' };
const MAX_FILE_BYTES = 10 * 1024 * 1024;
/**
 * A web page is checked every week unless the owner says otherwise (the API's default is `off`). Someone who gives a
 * page rather than pasting its text means "answer from my website": a copy fetched once goes stale without a sign
 * the day the prices or hours change on it, and the schedule cannot be changed after adding (only by adding the page
 * again). A check costs one conditional request, and a failed one keeps the last good version.
 */
const DEFAULT_REFRESH: DocumentRefresh = 'weekly';

type Source = 'text' | 'url' | 'file';

/** What the agent knows beyond its FAQs: documents it answers from (text, a web page, or a file). */
export function AgentKnowledge({ agent }: { agent: string }) {
  const api = useApi();
  const documents = useLiveQuery(['agents', agent, 'documents'], () => api.listDocuments(agent));
  const processing = documents.data?.data.some((d) => d.status === 'processing') ?? false;
  const { reload } = documents;

  useEffect(() => {
    if (!processing) return undefined;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, PROCESSING_POLL_MS);
    return () => window.clearInterval(timer);
  }, [processing, reload]);

  return (
    <section className="card" aria-labelledby="knowledge-title">
      <h2 id="knowledge-title">Knowledge</h2>
      <p className="muted">Documents the AI agent answers from, beside its FAQs: paste text, give a web page, or upload a file (text, Markdown, HTML or PDF).</p>
      <AddDocument agent={agent} onAdded={reload} />
      <AsyncView state={documents} what="documents" isEmpty={(p) => p.data.length === 0} empty="No documents yet.">
        {(page) => (
          <ul className="list" aria-label="Documents">
            {page.data.map((d) => (
              <DocumentRow key={d.id} agent={agent} document={d} onDeleted={reload} />
            ))}
          </ul>
        )}
      </AsyncView>
    </section>
  );
}

function DocumentRow({ agent, document: d, onDeleted }: { agent: string; document: AgentDocument; onDeleted(): void }) {
  const api = useApi();
  const action = useAction();
  const remove = async () => {
    const deleted = await action.run(async () => {
      await api.deleteDocument(agent, d.id);
      return true;
    });
    if (deleted) onDeleted();
  };
  return (
    <li className="row">
      <span>
        <strong>{d.title}</strong> <span className="muted">{d.source === 'url' && d.url ? d.url : d.source} · added {formatTime(d.created_at)}</span>{' '}
        <StatusBadge document={d} />
        {d.status === 'failed' && d.error && <span className="notice-error small"> {d.error}</span>}
        <DocumentFreshness document={d} />
      </span>
      <ErrorNotice error={action.error} />
      <button type="button" className="secondary button-small" disabled={action.pending} onClick={() => void remove()} aria-label={`Delete document ${d.title}`}>
        Delete
      </button>
    </li>
  );
}

function StatusBadge({ document: d }: { document: AgentDocument }) {
  if (d.status === 'ready') return <span className="badge">ready · {d.chunks} passage{d.chunks === 1 ? '' : 's'}</span>;
  if (d.status === 'failed') return <span className="badge badge-error">failed</span>;
  return (
    <span className="badge badge-warning" role="status">
      processing…
    </span>
  );
}

function AddDocument({ agent, onAdded }: { agent: string; onAdded(): void }) {
  const api = useApi();
  const action = useAction();
  const [source, setSource] = useState<Source>('text');
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [url, setUrl] = useState('');
  const [refresh, setRefresh] = useState<DocumentRefresh>(DEFAULT_REFRESH);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();

  const pickFile = (picked: File | null) => {
    setFile(picked);
    setFileError(picked && picked.size > MAX_FILE_BYTES ? 'The file is larger than 10 MiB.' : undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const added = await action.run(() => {
      if (source === 'text') return api.addTextDocument(agent, title.trim(), text);
      if (source === 'url') return api.addUrlDocument(agent, url.trim(), refresh, title.trim() || undefined);
      const chosen = file as File;
      const type = TYPE_BY_EXTENSION[chosen.name.split('.').pop()?.toLowerCase() ?? ''] ?? chosen.type;
      return api.uploadDocument(agent, new Blob([chosen], { type }), chosen.name, title.trim() || undefined);
    });
    if (!added) return;
    setTitle('');
    setText('');
    setUrl('');
    setRefresh(DEFAULT_REFRESH);
    setFile(null);
    onAdded();
  };

  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-label="Add a document">
      <fieldset className="choices">
        <legend>Add a document</legend>
        {(['text', 'url', 'file'] as const).map((s) => (
          <label key={s} className="checkbox">
            <input type="radio" name="document-source" checked={source === s} onChange={() => setSource(s)} />
            {s === 'text' ? 'Paste text' : s === 'url' ? 'A web page' : 'Upload a file'}
          </label>
        ))}
      </fieldset>
      <label>
        Title {source !== 'text' && <span className="muted">(optional)</span>}
        <input value={title} onChange={(e) => setTitle(e.target.value)} required={source === 'text'} maxLength={200} {...action.bind('title')} />
      </label>
      {action.fieldError('title')}
      {source === 'text' && (
        <label>
          Text <span className="muted">(plain text or Markdown; headings keep passages together)</span>
          <textarea value={text} onChange={(e) => setText(e.target.value)} required rows={6} {...action.bind('text')} />
        </label>
      )}
      {source === 'url' && (
        <>
          <label>
            Address
            <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} required placeholder="https://example.com/prices" {...action.bind('url')} />
          </label>
          <label>
            Keep it up to date
            <select value={refresh} onChange={(e) => setRefresh(REFRESH_CHOICES.find((c) => c.value === e.target.value)?.value ?? DEFAULT_REFRESH)} {...action.bind('refresh')}>
              {REFRESH_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <p className="muted small">
            {refresh === 'off'
              ? 'The agent keeps what the page says today; later changes to the page are not picked up.'
              : 'When the page changes, the agent answers from the new version after the next check. If a check fails, we keep the last good version.'}
          </p>
        </>
      )}
      {source === 'file' && (
        <label>
          File <span className="muted">(.txt, .md, .html or .pdf; up to 10 MiB)</span>
          <input type="file" accept=".txt,.md,.markdown,.html,.htm,.pdf,text/plain,text/markdown,text/html,application/pdf" onChange={(e) => pickFile(e.target.files?.[0] ?? null)} required {...action.bind('file')} />
        </label>
      )}
      {action.fieldError('text')}
      {action.fieldError('url')}
      {action.fieldError('refresh')}
      {action.fieldError('file')}
      <ErrorNotice error={fileError ?? action.error} />
      <button type="submit" disabled={action.pending || Boolean(fileError)}>
        {action.pending ? 'Adding…' : 'Add document'}
      </button>
    </form>
  );
}
