import { useState, type FormEvent } from 'react';
import { ApiError, type InboxThread, type TemplateComponent } from '../../api';
import { AsyncView } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { SendErrorNotice } from '../billing/insufficient-funds-notice';
import { TemplateBubble } from '../templates/template-bubble';
import { hasMediaHeader, partsOf, placeholdersOf, templateSend, valuesByComponent } from '../templates/template-definition';
import { TEMPLATES_LIVE } from '../templates/templates-page';

interface Sendable {
  key: string;
  name: string;
  language: string;
  components: TemplateComponent[];
}

/** Meta's pre-approved sample, sendable on every number that has no template of that name (CONTRACT.md §13). */
const META_SAMPLE: Sendable = {
  key: 'meta-sample',
  name: 'hello_world',
  language: 'en_US',
  components: [{ type: 'BODY', text: 'Welcome and congratulations!! This message demonstrates your ability to send a WhatsApp message notification from the Cloud API.' }],
};

/** The templates the conversation's number may send: its approved ones, and the sample. */
async function sendableTemplates(api: ReturnType<typeof useApi>, channelId: string): Promise<Sendable[]> {
  const approved = (await api.listTemplates()).data
    .filter((t) => t.channel_id === channelId && t.status === 'APPROVED')
    .map((t) => ({ key: t.id, name: t.name, language: t.language, components: t.components }));
  return approved.some((t) => t.name === META_SAMPLE.name) ? approved : [...approved, META_SAMPLE];
}

/** The number the conversation is on (`from` of the send); a role that may not list numbers sends from the default one. */
async function businessNumber(api: ReturnType<typeof useApi>, channelId: string): Promise<string | undefined> {
  try {
    return (await api.listChannels()).data.find((c) => c.id === channelId)?.phone_number;
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return undefined;
    throw err;
  }
}

/**
 * Outside the 24-hour window only an approved template reaches the customer: choose one, fill its variables (the
 * preview shows the result) and send it through `POST /v1/send` from the conversation's number.
 */
export function TemplateReply({ thread, onSent }: { thread: InboxThread; onSent(): void }) {
  const api = useApi();
  const templates = useLiveQuery(['templates', 'sendable', thread.channel_id], () => sendableTemplates(api, thread.channel_id), TEMPLATES_LIVE);
  return (
    <AsyncView state={templates} what="your approved templates">
      {(list) => <TemplatePicker thread={thread} templates={list} onSent={onSent} />}
    </AsyncView>
  );
}

function TemplatePicker({ thread, templates, onSent }: { thread: InboxThread; templates: Sendable[]; onSent(): void }) {
  const api = useApi();
  const [key, setKey] = useState(templates[0]?.key ?? '');
  const [values, setValues] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<{ name: string; messageId: string }>();
  const action = useAction();
  const chosen = templates.find((t) => t.key === key) ?? templates[0];
  const parts = partsOf(chosen.components);
  const placeholders = placeholdersOf(parts);
  const filled = valuesByComponent(placeholders, values);
  const mediaHeader = hasMediaHeader(parts);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await action.run(async () => {
      const from = await businessNumber(api, thread.channel_id);
      return api.sendTemplate({ to: thread.customer, template: templateSend(chosen.name, chosen.language, placeholders, values), ...(from ? { from } : {}) });
    });
    if (!answer) return;
    setSent({ name: chosen.name, messageId: answer.message_id });
    setValues({});
    onSent();
  };

  return (
    <form className="template-reply" data-testid="template-reply" onSubmit={(e) => void submit(e)} aria-label="Send a template">
      <label>
        Template
        <select
          value={chosen.key}
          onChange={(e) => {
            setKey(e.target.value);
            setValues({});
            setSent(undefined);
          }}
        >
          {templates.map((t) => (
            <option key={t.key} value={t.key}>
              {t.name} ({t.language})
            </option>
          ))}
        </select>
      </label>
      {placeholders.map((p) => (
        <label key={`${chosen.key}-${p.key}`}>
          {p.label}
          <input value={values[p.key] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [p.key]: e.target.value }))} required maxLength={1024} />
        </label>
      ))}
      <TemplateBubble parts={parts} values={{ header: filled.header, body: filled.body }} label={`Preview of ${chosen.name} as the customer will see it`} />
      {mediaHeader && (
        <p className="notice notice-warning">This template’s header is an image, a video, a document or a location: send it through the API (`POST /v1/send`).</p>
      )}
      <SendErrorNotice action={action} what="this template message" />
      <button type="submit" disabled={action.pending || mediaHeader}>
        {action.pending ? 'Sending…' : 'Send template'}
      </button>
      {sent && (
        <p className="notice notice-success" role="status" data-testid="template-sent">
          Template <code>{sent.name}</code> sent ({sent.messageId}). The customer’s answer reopens the window.
        </p>
      )}
    </form>
  );
}
