import { useEffect, useState, type FormEvent } from 'react';
import type { ContactImport } from '../../api';
import { ErrorNotice } from '../../components/feedback';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';

const POLL_MS = 1000;

/** A CSV import: the file goes up as a background job, whose progress and bad rows show here until it ends. */
export function ContactImportForm({ onFinished }: { onFinished: () => void }) {
  const api = useApi();
  const action = useAction();
  const [file, setFile] = useState<File>();
  const [job, setJob] = useState<ContactImport>();

  useEffect(() => {
    if (!job || job.status === 'completed' || job.status === 'failed') return undefined;
    const timer = window.setTimeout(() => {
      void api.contactImport(job.id).then((next) => {
        setJob(next);
        if (next.status === 'completed' || next.status === 'failed') onFinished();
      }, () => undefined);
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [api, job, onFinished]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    const queued = await action.run(() => api.importContacts(file));
    if (queued) setJob(await api.contactImport(queued.job_id));
  };

  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label="Import contacts">
      <h2>Import a CSV</h2>
      <p className="small muted">
        A header row, then a contact per row: <code>phone</code> (E.164), <code>email</code>, <code>name</code>, <code>tags</code> (separated by
        <code>;</code>), any other column an attribute.
      </p>
      <label>
        CSV file
        <input type="file" accept=".csv,text/csv" onChange={(e) => setFile(e.target.files?.[0])} required {...action.bind('file')} />
      </label>
      {action.fieldError('file')}
      <ErrorNotice error={action.error} />
      <button type="submit" disabled={action.pending || !file || (job !== undefined && job.status !== 'completed' && job.status !== 'failed')}>
        Import
      </button>
      {job && <ImportProgress job={job} />}
    </form>
  );
}

function ImportProgress({ job }: { job: ContactImport }) {
  const done = job.created + job.updated + job.failed.length;
  return (
    <div role="status" aria-label="Import progress">
      <p>
        {job.status === 'completed'
          ? `Imported: ${job.created} created, ${job.updated} updated, ${job.failed.length} refused.`
          : job.status === 'failed'
            ? `The file could not be read on: ${job.error ?? 'unknown error'}.`
            : `Importing… ${done}${job.total !== null ? ` of ${job.total}` : ''} rows`}
      </p>
      {job.total !== null && job.total > 0 && <progress max={job.total} value={done} aria-label="Rows imported" />}
      {job.failed.length > 0 && (
        <ul className="small" aria-label="Refused rows">
          {job.failed.map((f) => (
            <li key={f.row}>
              Row {f.row}: {f.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
