import { useEffect, useState, type FormEvent } from 'react';
import type { LlmSettings } from '../../api';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';

const BLANK = { base_url: '', api_key: '', model: '', monthly_budget: '' };

/**
 * The tenant's own OpenAI-compatible LLM and its monthly budget (CONTRACT.md §16). The key is write-only: only its last
 * four characters come back, so saving again takes the key again. A refused save names its fields beside them.
 */
export function LlmSettingsForm() {
  const api = useApi();
  const current = useLiveQuery(['settings', 'llm'], () => api.llmSettings());
  return (
    <AsyncView state={current} what="the LLM settings">
      {(settings) => <LlmSettingsEditor settings={settings} onChange={current.reload} />}
    </AsyncView>
  );
}

function LlmSettingsEditor({ settings, onChange }: { settings: LlmSettings | null; onChange: () => void }) {
  const api = useApi();
  const action = useAction();
  const [fields, setFields] = useState(BLANK);
  useEffect(() => setFields(settings ? { base_url: settings.base_url, api_key: '', model: settings.model, monthly_budget: settings.monthly_budget } : BLANK), [settings]);
  const set = (name: keyof typeof BLANK) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: e.target.value }));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => api.putLlmSettings({ ...fields, base_url: fields.base_url.trim(), monthly_budget: fields.monthly_budget.trim() }))) onChange();
  };
  const remove = async () => {
    // a 204 has no body: the action answers true once it succeeded
    if (await action.run(() => api.deleteLlmSettings().then(() => true))) onChange();
  };

  return (
    <form className="card form" onSubmit={(e) => void save(e)} aria-label="LLM settings">
      <p className="small muted" data-testid="llm-settings-state">
        {settings ? (
          <>
            Your agents use your own LLM, key ending in <strong data-testid="llm-key-last4">{settings.api_key_last4}</strong>. Over the monthly budget they answer without an LLM.
          </>
        ) : (
          'Your agents use the platform’s LLM. Set your own OpenAI-compatible endpoint to use it instead.'
        )}
      </p>
      <label>
        Base URL
        <input type="text" inputMode="url" value={fields.base_url} onChange={set('base_url')} required placeholder="https://api.openai.com/v1" {...action.bind('base_url')} />
      </label>
      {action.fieldError('base_url')}
      <label>
        API key {settings && <span className="muted">(saved, ending in {settings.api_key_last4}; enter it again to save)</span>}
        <input type="password" autoComplete="off" value={fields.api_key} onChange={set('api_key')} required {...action.bind('api_key')} />
      </label>
      {action.fieldError('api_key')}
      <label>
        Model
        <input value={fields.model} onChange={set('model')} required placeholder="gpt-4o-mini" {...action.bind('model')} />
      </label>
      {action.fieldError('model')}
      <label>
        Monthly budget (USD)
        <input inputMode="decimal" value={fields.monthly_budget} onChange={set('monthly_budget')} required placeholder="25.00" {...action.bind('monthly_budget')} />
      </label>
      {action.fieldError('monthly_budget')}
      <ErrorNotice error={action.error} />
      <div className="row wrap">
        <button type="submit" disabled={action.pending}>
          Save LLM settings
        </button>
        {settings && (
          <button type="button" className="secondary" disabled={action.pending} onClick={() => void remove()}>
            Use the platform’s LLM
          </button>
        )}
      </div>
    </form>
  );
}
