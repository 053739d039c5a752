import { useMemo, useState, type FormEvent } from 'react';
import type { AudienceCount, CampaignAudience, CreateCampaignBody, Template } from '../../api';
import { ErrorNotice } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { useRouter } from '../../router';
import { useApi } from '../../session/session';
import { TemplateBubble } from '../templates/template-bubble';
import { AudienceCountLine } from './audience-count';
import { CostEstimateLine } from './cost-estimate';
import { hasMediaHeader, partsOf, placeholdersOf, templateSend, valuesByComponent } from '../templates/template-definition';

const keyOf = (t: Template) => `${t.name}|${t.language}`;
const tagsOf = (text: string) => text.split(',').map((t) => t.trim()).filter(Boolean);
/** `city=Lisbon, tier=2`: numbers and true/false are taken as such (a contact's attribute 2 is not the text "2"). */
function attributesOf(text: string): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    const key = (at < 0 ? pair : pair.slice(0, at)).trim();
    if (!key || at < 0) continue;
    const value = pair.slice(at + 1).trim();
    out[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value === 'true' ? true : value === 'false' ? false : value;
  }
  return out;
}

/** A new campaign: an approved template, its variables (fixed text or contact fields), the audience's tags, an optional time. */
export function CampaignForm() {
  const api = useApi();
  const { navigate } = useRouter();
  const action = useAction();
  const templates = useLiveQuery(['templates'], () => api.listTemplates());
  const approved = useMemo(() => (templates.data?.data ?? []).filter((t) => t.status === 'APPROVED'), [templates.data]);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [tags, setTags] = useState('');
  const [attributes, setAttributes] = useState('');
  const [scheduleAt, setScheduleAt] = useState('');
  const [reach, setReach] = useState<AudienceCount>();

  const audience = useMemo((): CampaignAudience => {
    const attrs = attributesOf(attributes);
    return { tags: tagsOf(tags), ...(Object.keys(attrs).length ? { attributes: attrs } : {}) };
  }, [tags, attributes]);
  const template = approved.find((t) => keyOf(t) === chosen);
  const parts = template ? partsOf(template.components) : undefined;
  const placeholders = parts ? placeholdersOf(parts) : [];
  const choose = (key: string) => {
    setChosen(key);
    const picked = approved.find((t) => keyOf(t) === key);
    // the first body variable is most often the customer's name
    const first = picked ? placeholdersOf(partsOf(picked.components)).find((p) => p.component === 'body') : undefined;
    setValues(first ? { [first.key]: '{{contact.name}}' } : {});
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!template) return;
    const send = templateSend(template.name, template.language, placeholders, values);
    const created = await action.run(() =>
      api.createCampaign({
        name,
        template: { name: template.name, language: template.language, ...(send.components ? { components: send.components as CreateCampaignBody['template']['components'] } : {}) },
        audience,
        ...(scheduleAt ? { schedule_at: new Date(scheduleAt).toISOString() } : {}),
      }),
    );
    if (created) navigate(`/campaigns/${created.id}`);
  };

  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label="Create a campaign">
      <h2>New campaign</h2>
      <div className="form">
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} {...action.bind('name')} />
        </label>
        {action.fieldError('name')}
        <label>
          Template
          <select value={chosen} onChange={(e) => choose(e.target.value)} required {...action.bind('template')}>
            <option value="">{approved.length ? 'Choose an approved template' : 'No approved template yet'}</option>
            {approved.map((t) => (
              <option key={keyOf(t)} value={keyOf(t)}>
                {t.name} ({t.language}, {t.category})
              </option>
            ))}
          </select>
        </label>
        {action.fieldError('template')}
        {parts && hasMediaHeader(parts) && <p className="notice notice-warning">This template has a media header: create its campaign through the API.</p>}
        {placeholders.length > 0 && (
          <fieldset>
            <legend>Variables</legend>
            <p className="small muted" id="campaign-variables-hint">
              Fixed text, or a contact field filled per recipient: <code>{'{{contact.name}}'}</code>, <code>{'{{contact.email}}'}</code>,{' '}
              <code>{'{{contact.attributes.city}}'}</code>. A start is refused, naming them, when a recipient would get an empty one.
            </p>
            {placeholders.map((p) => (
              <label key={p.key}>
                {p.label}
                <input value={values[p.key] ?? ''} onChange={(e) => setValues({ ...values, [p.key]: e.target.value })} required aria-describedby="campaign-variables-hint" />
              </label>
            ))}
          </fieldset>
        )}
        {parts && <TemplateBubble parts={parts} values={valuesByComponent(placeholders, values)} label="Preview of the campaign message" />}
        <label>
          Audience: contacts with every one of these tags
          <input value={tags} onChange={(e) => setTags(e.target.value)} required placeholder="vip, newsletter" {...action.bind('audience')} aria-describedby={action.bind('audience')['aria-describedby'] ?? 'campaign-tags-hint'} />
        </label>
        <span id="campaign-tags-hint" className="small muted">
          Comma-separated. The audience is frozen when the campaign starts: contacts added later are not messaged, opted-out ones are skipped.
        </span>
        <label>
          Only contacts whose attributes are <span className="muted">(optional)</span>
          <input value={attributes} onChange={(e) => setAttributes(e.target.value)} placeholder="city=Lisbon, tier=2" aria-describedby="campaign-attributes-hint" />
        </label>
        <span id="campaign-attributes-hint" className="small muted">
          Comma-separated <code>key=value</code> pairs; numbers and true/false are compared as such.
        </span>
        {action.fieldError('audience')}
        {action.fieldError('audience.tags')}
        {action.fieldError('audience.attributes')}
        <AudienceCountLine audience={audience} onCounted={setReach} />
        <CostEstimateLine template={template} recipients={reach?.count} />
        <label>
          Start at <span className="muted">(optional; without it the campaign waits as a draft until you start it)</span>
          <input type="datetime-local" value={scheduleAt} onChange={(e) => setScheduleAt(e.target.value)} {...action.bind('schedule_at')} />
        </label>
        {action.fieldError('schedule_at')}
        <ErrorNotice error={action.error} />
        <button type="submit" disabled={action.pending || !template || tagsOf(tags).length === 0}>
          Create campaign
        </button>
      </div>
    </form>
  );
}
