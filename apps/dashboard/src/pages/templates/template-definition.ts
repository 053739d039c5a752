import type { TemplateCategory, TemplateComponent, TemplateSend } from '../../api';

// A template's parts in the Cloud API's component shapes (Meta's "Message templates" reference): what the create form
// builds, what the preview draws and what a send must fill.

export type ButtonType = 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER';

export interface ButtonDraft {
  type: ButtonType;
  text: string;
  /** URL buttons: may end in `{{1}}`, filled at send time. */
  url: string;
  /** PHONE_NUMBER buttons. */
  phone_number: string;
}

/** What the create form holds. Variables are `{{1}}`, `{{2}}`, …; Meta's review wants an example value for each. */
export interface TemplateDraft {
  name: string;
  language: string;
  category: TemplateCategory;
  header: string;
  headerExample: string;
  body: string;
  bodyExamples: string[];
  footer: string;
  buttons: ButtonDraft[];
}

export const EMPTY_DRAFT: TemplateDraft = {
  name: '',
  language: 'en_US',
  category: 'UTILITY',
  header: '',
  headerExample: '',
  body: '',
  bodyExamples: [],
  footer: '',
  buttons: [],
};

export const MAX_BUTTONS = 10;

/** The distinct variable numbers a text uses, ascending (`"{{2}} and {{1}}"` → [1, 2]). */
export function variablesOf(text: string): number[] {
  return [...new Set([...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
}

/** The text with each `{{n}}` replaced by `values[n - 1]` (left as `{{n}}` while that value is empty). */
export function fill(text: string, values: readonly string[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (placeholder, n: string) => values[Number(n) - 1]?.trim() || placeholder);
}

/** The definition sent to `POST /api/v1/templates`: the parts filled in, with the examples the review needs. */
export function componentsOf(draft: TemplateDraft): TemplateComponent[] {
  const components: TemplateComponent[] = [];
  const header = draft.header.trim();
  if (header) {
    components.push({
      type: 'HEADER',
      format: 'TEXT',
      text: header,
      ...(variablesOf(header).length > 0 ? { example: { header_text: [draft.headerExample.trim()] } } : {}),
    });
  }
  const bodyVariables = variablesOf(draft.body).length;
  components.push({
    type: 'BODY',
    text: draft.body,
    ...(bodyVariables > 0 ? { example: { body_text: [draft.bodyExamples.slice(0, bodyVariables).map((v) => v.trim())] } } : {}),
  });
  if (draft.footer.trim()) components.push({ type: 'FOOTER', text: draft.footer.trim() });
  if (draft.buttons.length > 0) {
    components.push({
      type: 'BUTTONS',
      buttons: draft.buttons.map((b) =>
        b.type === 'URL'
          ? { type: 'URL', text: b.text.trim(), url: b.url.trim() }
          : b.type === 'PHONE_NUMBER'
            ? { type: 'PHONE_NUMBER', text: b.text.trim(), phone_number: b.phone_number.trim() }
            : { type: 'QUICK_REPLY', text: b.text.trim() },
      ),
    });
  }
  return components;
}

/** The parts of a definition as the bubble shows them (unknown or malformed parts are left out). */
export interface TemplateParts {
  header?: { format: string; text?: string };
  body: string;
  footer?: string;
  buttons: { type: string; text: string; url?: string; phone_number?: string }[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function partsOf(components: readonly TemplateComponent[]): TemplateParts {
  const parts: TemplateParts = { body: '', buttons: [] };
  for (const c of components) {
    if (c.type === 'HEADER') parts.header = { format: str(c.format) ?? 'TEXT', text: str(c.text) };
    else if (c.type === 'BODY') parts.body = str(c.text) ?? '';
    else if (c.type === 'FOOTER') parts.footer = str(c.text);
    else if (c.type === 'BUTTONS' && Array.isArray(c.buttons)) {
      for (const b of c.buttons as Record<string, unknown>[]) {
        parts.buttons.push({ type: str(b?.type) ?? '', text: str(b?.text) ?? str(b?.type) ?? '', url: str(b?.url), phone_number: str(b?.phone_number) });
      }
    }
  }
  return parts;
}

/** The example values a definition carries for its review (`example.header_text`, `example.body_text[0]`). */
export function examplesOf(components: readonly TemplateComponent[]): { header: string[]; body: string[] } {
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const examples = { header: [] as string[], body: [] as string[] };
  for (const c of components) {
    const example = typeof c.example === 'object' && c.example !== null ? (c.example as Record<string, unknown>) : undefined;
    if (c.type === 'HEADER') examples.header = strings(example?.header_text);
    if (c.type === 'BODY' && Array.isArray(example?.body_text)) examples.body = strings(example.body_text[0]);
  }
  return examples;
}

/** One value a send must give: a variable of the header, of the body, or of a URL button (by its index). */
export interface Placeholder {
  key: string;
  component: 'header' | 'body' | 'button';
  /** The variable's number (`{{n}}`). */
  number: number;
  buttonIndex?: number;
  label: string;
}

/** Every placeholder a send of this template fills, in the order the form asks for them. */
export function placeholdersOf(parts: TemplateParts): Placeholder[] {
  const list: Placeholder[] = [];
  if (parts.header?.format === 'TEXT' && parts.header.text) {
    for (const n of variablesOf(parts.header.text)) list.push({ key: `header-${n}`, component: 'header', number: n, label: `Header {{${n}}}` });
  }
  for (const n of variablesOf(parts.body)) list.push({ key: `body-${n}`, component: 'body', number: n, label: `Body {{${n}}}` });
  parts.buttons.forEach((b, index) => {
    if (b.type === 'URL' && b.url && variablesOf(b.url).length > 0) {
      list.push({ key: `button-${index}`, component: 'button', number: 1, buttonIndex: index, label: `Link of “${b.text}” {{1}}` });
    }
  });
  return list;
}

/** A header the dashboard cannot fill (an image, a video, a document, a location: sent through the API instead). */
export function hasMediaHeader(parts: TemplateParts): boolean {
  return parts.header !== undefined && parts.header.format !== 'TEXT';
}

/** The values a placeholder list was filled with, by component, as `fill` takes them (`values[n - 1]`). */
export function valuesByComponent(placeholders: readonly Placeholder[], values: Record<string, string>) {
  const of = (component: Placeholder['component'], buttonIndex?: number) => {
    const filled: string[] = [];
    for (const p of placeholders) if (p.component === component && p.buttonIndex === buttonIndex) filled[p.number - 1] = values[p.key] ?? '';
    return filled;
  };
  return { header: of('header'), body: of('body'), button: (index: number) => of('button', index) };
}

/** The `template` of a send (Cloud API shape): each component with placeholders gets its parameters, in order. */
export function templateSend(name: string, language: string, placeholders: readonly Placeholder[], values: Record<string, string>): TemplateSend {
  const text = (p: Placeholder) => ({ type: 'text', text: (values[p.key] ?? '').trim() });
  const byNumber = (a: Placeholder, b: Placeholder) => a.number - b.number;
  const components: unknown[] = [];
  const header = placeholders.filter((p) => p.component === 'header').sort(byNumber);
  if (header.length > 0) components.push({ type: 'header', parameters: header.map(text) });
  const body = placeholders.filter((p) => p.component === 'body').sort(byNumber);
  if (body.length > 0) components.push({ type: 'body', parameters: body.map(text) });
  for (const p of placeholders.filter((x) => x.component === 'button')) {
    components.push({ type: 'button', sub_type: 'url', index: String(p.buttonIndex), parameters: [text(p)] });
  }
  return { name, language: { code: language }, ...(components.length > 0 ? { components } : {}) };
}
