import { useState } from 'react';
import type { Template } from '../../api';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { formatTime } from '../../components/format';
import { PageHeader } from '../../components/page-header';
import { type LiveRefresh, useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { TemplateBubble } from './template-bubble';
import { examplesOf, partsOf } from './template-definition';
import { TemplateForm } from './template-form';

/** A review's end (`template.status`) changes a badge. */
export const TEMPLATES_LIVE: LiveRefresh = { events: ['template.status'] };


/** Message templates: what may be sent to a customer outside the 24-hour window, once WhatsApp approves it. */
export function TemplatesPage() {
  const api = useApi();
  const templates = useLiveQuery(['templates'], () => api.listTemplates(), TEMPLATES_LIVE);
  return (
    <section>
      <PageHeader title="Templates">
        Messages WhatsApp reviews before you may send them. A template is the only way to write to a customer who has not written in the
        last 24 hours.
      </PageHeader>
      <TemplateForm onCreated={templates.reload} />
      <section aria-labelledby="templates-title">
        <h2 id="templates-title">Your templates</h2>
        <AsyncView state={templates} what="templates" isEmpty={(p) => p.data.length === 0} empty="No template yet: create one above.">
          {(page) => (
            <ul className="list template-list">
              {page.data.map((t) => (
                <TemplateItem key={t.id} template={t} onDeleted={templates.reload} />
              ))}
            </ul>
          )}
        </AsyncView>
      </section>
    </section>
  );
}

export function StatusBadge({ template }: { template: Template }) {
  const tone = template.status === 'APPROVED' ? '' : template.status === 'REJECTED' ? ' badge-error' : ' badge-warning';
  return (
    <span className={`badge${tone}`} data-testid="template-status" data-status={template.status}>
      {template.status === 'PENDING' ? 'PENDING · in review' : template.status}
    </span>
  );
}

function TemplateItem({ template, onDeleted }: { template: Template; onDeleted(): void }) {
  const api = useApi();
  const action = useAction();
  const [confirming, setConfirming] = useState(false);
  const remove = async () => {
    const done = await action.run(async () => {
      await api.deleteTemplate(template.id);
      return true;
    });
    if (done) onDeleted();
  };
  return (
    <li className="template-item" data-testid="template-item" data-name={template.name}>
      <div className="row wrap">
        <h3>
          <code>{template.name}</code>
        </h3>
        <StatusBadge template={template} />
        <span className="muted small">
          {template.language} · {template.category} · created {formatTime(template.created_at)}
        </span>
      </div>
      {template.status === 'REJECTED' && (
        <p className="notice notice-error" data-testid="template-reason">
          Rejected: {template.reason ?? 'WhatsApp gave no reason.'}
        </p>
      )}
      {template.status === 'PENDING' && <p className="small muted">WhatsApp is reviewing it; this changes by itself when the review ends.</p>}
      <TemplateBubble parts={partsOf(template.components)} values={examplesOf(template.components)} label={`Preview of ${template.name} with its example values`} />
      <ErrorNotice error={action.error} />
      {confirming ? (
        <div className="row wrap" role="group" aria-label={`Delete ${template.name}?`}>
          <span>Delete it here and at WhatsApp?</span>
          <button type="button" className="danger button-small" disabled={action.pending} onClick={() => void remove()}>
            Yes, delete {template.name}
          </button>
          <button type="button" className="secondary button-small" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <button type="button" className="danger button-small" aria-label={`Delete ${template.name}`} onClick={() => setConfirming(true)}>
          Delete
        </button>
      )}
    </li>
  );
}
