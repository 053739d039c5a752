import { useState, type FormEvent } from 'react';
import { TEMPLATE_CATEGORIES, type Template, type TemplateCategory } from '../../api';
import { ErrorNotice } from '../../components/feedback';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { TemplateBubble } from './template-bubble';
import { EMPTY_DRAFT, MAX_BUTTONS, componentsOf, partsOf, variablesOf, type ButtonDraft, type ButtonType, type TemplateDraft } from './template-definition';

const BUTTON_LABELS: Record<ButtonType, string> = { QUICK_REPLY: 'Quick reply', URL: 'Link', PHONE_NUMBER: 'Call a number' };
const CATEGORY_HINTS: Record<TemplateCategory, string> = {
  MARKETING: 'offers, news, reminders to come back',
  UTILITY: 'about an order, a booking or an account',
  AUTHENTICATION: 'one-time codes',
};

/** A field's bindings (its error, when refused) also pointing at its hint. */
function withHint<T extends { 'aria-describedby'?: string }>(bound: T, hintId: string): T {
  return { ...bound, 'aria-describedby': [hintId, bound['aria-describedby']].filter(Boolean).join(' ') };
}

/** Create a template (name, language, category; header, body with variables, footer, buttons) with a live preview. */
export function TemplateForm({ onCreated }: { onCreated(): void }) {
  const api = useApi();
  const [draft, setDraft] = useState<TemplateDraft>(EMPTY_DRAFT);
  const [created, setCreated] = useState<Template>();
  const action = useAction();
  const set = <K extends keyof TemplateDraft>(key: K, value: TemplateDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const bodyVariables = variablesOf(draft.body);
  const headerHasVariable = variablesOf(draft.header).length > 0;
  const parts = partsOf(componentsOf(draft));

  const setButton = (index: number, change: Partial<ButtonDraft>) =>
    set(
      'buttons',
      draft.buttons.map((b, i) => (i === index ? { ...b, ...change } : b)),
    );
  const addVariable = () => set('body', `${draft.body}{{${(bodyVariables[bodyVariables.length - 1] ?? 0) + 1}}}`);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const template = await action.run(() =>
      api.createTemplate({ name: draft.name.trim(), language: draft.language.trim(), category: draft.category, components: componentsOf(draft) }),
    );
    if (!template) return;
    setCreated(template);
    setDraft(EMPTY_DRAFT);
    onCreated();
  };

  return (
    <form className="card template-editor" onSubmit={(e) => void submit(e)} aria-label="Create a template">
      <h2 className="template-editor-title">New template</h2>
      <div className="form">
        <label>
          Name
          <input
            value={draft.name}
            onChange={(e) => set('name', e.target.value)}
            required
            maxLength={512}
            pattern="[a-z0-9_]+"
            {...withHint(action.bind('name'), 'template-name-hint')}
          />
        </label>
        <span id="template-name-hint" className="small muted">
          Lower-case letters, digits and _ (for example order_ready).
        </span>
        {action.fieldError('name')}
        <div className="row wrap template-row">
          <div className="form">
            <label>
              Language
              <input value={draft.language} onChange={(e) => set('language', e.target.value)} required maxLength={6} {...withHint(action.bind('language'), 'template-language-hint')} />
            </label>
            <span id="template-language-hint" className="small muted">
              A WhatsApp language code: en, en_US, es, pt_BR…
            </span>
          </div>
          <label>
            Category
            <select value={draft.category} onChange={(e) => set('category', e.target.value as TemplateCategory)} {...action.bind('category')}>
              {TEMPLATE_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c} ({CATEGORY_HINTS[c]})
                </option>
              ))}
            </select>
          </label>
        </div>
        {action.fieldError('language')}
        {action.fieldError('category')}
        <label>
          Header <span className="muted">(optional, at most one variable)</span>
          <input value={draft.header} onChange={(e) => set('header', e.target.value)} maxLength={60} />
        </label>
        {headerHasVariable && (
          <label>
            Example for the header’s {'{{1}}'}
            <input value={draft.headerExample} onChange={(e) => set('headerExample', e.target.value)} required />
          </label>
        )}
        <label>
          Body
          <textarea value={draft.body} onChange={(e) => set('body', e.target.value)} required rows={4} maxLength={1024} aria-describedby="template-body-hint" />
        </label>
        <div className="row wrap">
          <span id="template-body-hint" className="small muted">
            Variables are {'{{1}}'}, {'{{2}}'}, … numbered from 1; you fill them in each time you send.
          </span>
          <button type="button" className="secondary button-small" onClick={addVariable}>
            Add a variable
          </button>
        </div>
        {bodyVariables.length > 0 && (
          <fieldset>
            <legend>Example values (WhatsApp’s review reads the message with them)</legend>
            {bodyVariables.map((n) => (
              <label key={n}>
                Example for {`{{${n}}}`}
                <input
                  value={draft.bodyExamples[n - 1] ?? ''}
                  onChange={(e) => {
                    const examples = [...draft.bodyExamples];
                    examples[n - 1] = e.target.value;
                    set('bodyExamples', examples);
                  }}
                  required
                />
              </label>
            ))}
          </fieldset>
        )}
        <label>
          Footer <span className="muted">(optional, no variables)</span>
          <input value={draft.footer} onChange={(e) => set('footer', e.target.value)} maxLength={60} />
        </label>
        <fieldset>
          <legend>Buttons (optional)</legend>
          {draft.buttons.map((b, i) => (
            <div key={i} className="template-button row wrap" role="group" aria-label={`Button ${i + 1}`}>
              <label>
                Kind
                <select value={b.type} onChange={(e) => setButton(i, { type: e.target.value as ButtonType })}>
                  {(Object.keys(BUTTON_LABELS) as ButtonType[]).map((t) => (
                    <option key={t} value={t}>
                      {BUTTON_LABELS[t]}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Label
                <input value={b.text} onChange={(e) => setButton(i, { text: e.target.value })} required maxLength={25} />
              </label>
              {b.type === 'URL' && (
                <label className="grow">
                  Link (may end in {'{{1}}'})
                  <input type="url" value={b.url} onChange={(e) => setButton(i, { url: e.target.value })} required placeholder="https://example.com/orders/{{1}}" />
                </label>
              )}
              {b.type === 'PHONE_NUMBER' && (
                <label>
                  Phone number
                  <input type="tel" value={b.phone_number} onChange={(e) => setButton(i, { phone_number: e.target.value })} required placeholder="+14155550123" />
                </label>
              )}
              <button type="button" className="secondary button-small" onClick={() => set('buttons', draft.buttons.filter((_, j) => j !== i))}>
                Remove button {i + 1}
              </button>
            </div>
          ))}
          {draft.buttons.length < MAX_BUTTONS && (
            <button
              type="button"
              className="secondary button-small"
              onClick={() => set('buttons', [...draft.buttons, { type: 'QUICK_REPLY', text: '', url: '', phone_number: '' }])}
            >
              Add a button
            </button>
          )}
        </fieldset>
        <ErrorNotice error={action.error} />
        <button type="submit" disabled={action.pending}>
          {action.pending ? 'Submitting…' : 'Submit for review'}
        </button>
        {created && (
          <p className="notice notice-success" role="status" data-testid="template-created" data-status={created.status}>
            Submitted <code>{created.name}</code> ({created.language}): {created.status}. WhatsApp reviews it; its badge below changes when the
            review ends.
          </p>
        )}
      </div>
      <div className="template-preview-pane">
        <h3>Preview</h3>
        <p className="small muted">As the customer sees it, with your example values.</p>
        <div className="phone wa-screen">
          <TemplateBubble parts={parts} values={{ header: [draft.headerExample], body: draft.bodyExamples }} label="Preview of the new template" />
        </div>
      </div>
    </form>
  );
}
