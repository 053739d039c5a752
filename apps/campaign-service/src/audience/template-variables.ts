import type { CampaignTemplate, ContactRecord, TemplateContent } from '@parley/contracts';

/** `{{contact.name}}`, `{{contact.phone}}`, `{{contact.email}}`, `{{contact.attributes.<key>}}` in any string of the components. */
const VARIABLE = /\{\{\s*contact\.([A-Za-z0-9_.-]+)\s*\}\}/g;

export interface FilledTemplate {
  template: TemplateContent;
  /** Where a parameter naming a contact field came out empty (a recipient must not get it), e.g. `components[0].parameters[1].text`. */
  empty: { path: string; variable: string }[];
}

function fieldOf(contact: ContactRecord, path: string): string {
  const [head, ...rest] = path.split('.');
  let value: unknown;
  if (head === 'attributes' && rest.length > 0) value = contact.attributes?.[rest.join('.')];
  else if (rest.length === 0 && (head === 'name' || head === 'phone' || head === 'email')) value = contact[head];
  return value === undefined || value === null ? '' : String(value);
}

function fill(value: unknown, path: string, contact: ContactRecord, empty: FilledTemplate['empty']): unknown {
  if (typeof value === 'string') {
    const variables = [...value.matchAll(VARIABLE)].map((m) => m[0]);
    if (variables.length === 0) return value;
    const filled = value.replace(VARIABLE, (_m, field: string) => fieldOf(contact, field));
    if (filled.trim() === '') empty.push({ path, variable: variables.join(' ') });
    return filled;
  }
  if (Array.isArray(value)) return value.map((item, i) => fill(item, `${path}[${i}]`, contact, empty));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, path ? `${path}.${key}` : key, contact, empty)]));
  }
  return value;
}

/** The campaign's template as one contact gets it: every contact variable replaced by that contact's field. */
export function fillTemplate(template: CampaignTemplate, contact: ContactRecord): FilledTemplate {
  const empty: FilledTemplate['empty'] = [];
  const components = template.components ? (fill(template.components, 'components', contact, empty) as unknown[]) : undefined;
  return { template: { name: template.name, language: { code: template.language }, ...(components ? { components } : {}) }, empty };
}
