import { TEMPLATE_CATEGORIES, type FieldError } from '@parley/contracts';

/**
 * The Cloud API's rules for a message template's definition and for the parameters a send fills it with
 * (Meta's "Message templates" and "Components" references): one BODY (≤ 1024 chars), at most one HEADER (TEXT ≤ 60
 * chars with at most one variable, or a media/location format), FOOTER (≤ 60 chars, no variables) and BUTTONS
 * (1–10; QUICK_REPLY, URL ≤ 2000 chars, PHONE_NUMBER ≤ 20 chars, COPY_CODE; labels ≤ 25 chars). Variables are `{{1}}`,
 * `{{2}}`, … numbered from 1 without gaps, each with an example value, as Meta's review requires.
 */
export const TEMPLATE_NAME = /^[a-z0-9_]{1,512}$/;
export const TEMPLATE_LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/;
const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE'] as const;
const LIMITS = { body: 1024, header: 60, footer: 60, buttonText: 25, url: 2000, phone: 20, buttons: 10 };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The variable numbers a text uses, in order of appearance (`{{1}}` → 1). */
export function variablesOf(text: string): number[] {
  return [...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
}

/** How many distinct variables a text has, or an error when they are not 1..n. */
function variableCount(text: string, field: string, errors: FieldError[]): number {
  const used = [...new Set(variablesOf(text))].sort((a, b) => a - b);
  if (used.some((n, i) => n !== i + 1)) errors.push({ field, message: `${field} must number its variables {{1}}, {{2}}, … from 1 without gaps` });
  return used.length;
}

function examples(component: Json, key: string): unknown[] | undefined {
  const example = component.example;
  if (!isObject(example)) return undefined;
  const value = example[key];
  if (!Array.isArray(value)) return undefined;
  // body_text is a list of example rows ([["Ana", "A-17"]]); header_text a flat list (["Ana"]).
  return key === 'body_text' ? (Array.isArray(value[0]) ? (value[0] as unknown[]) : undefined) : value;
}

function text(component: Json, field: string, max: number, errors: FieldError[]): string | null {
  if (typeof component.text !== 'string' || component.text.trim() === '') {
    errors.push({ field, message: `${field} must be a non-empty string` });
    return null;
  }
  if (component.text.length > max) errors.push({ field, message: `${field} must be at most ${max} characters` });
  return component.text;
}

/** What is wrong with a template's definition, one entry per field (`components[1].text`); empty when it is valid. */
export function templateProblems(body: { name?: unknown; language?: unknown; category?: unknown; components?: unknown }): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof body.name !== 'string' || !TEMPLATE_NAME.test(body.name)) errors.push({ field: 'name', message: 'name must be 1–512 lower-case letters, digits and _' });
  if (typeof body.language !== 'string' || !TEMPLATE_LANGUAGE.test(body.language)) errors.push({ field: 'language', message: 'language must be a WhatsApp language code such as en or en_US' });
  if (typeof body.category !== 'string' || !(TEMPLATE_CATEGORIES as readonly string[]).includes(body.category)) {
    errors.push({ field: 'category', message: `category must be one of: ${TEMPLATE_CATEGORIES.join(', ')}` });
  }
  const components = body.components;
  if (!Array.isArray(components) || components.length === 0) {
    errors.push({ field: 'components', message: 'components must be a non-empty array with one BODY' });
    return errors;
  }
  const seen = new Map<string, number>();
  components.forEach((component, i) => {
    const at = `components[${i}]`;
    if (!isObject(component)) return errors.push({ field: at, message: `${at} must be an object` });
    const type = component.type;
    if (type !== 'HEADER' && type !== 'BODY' && type !== 'FOOTER' && type !== 'BUTTONS') {
      return errors.push({ field: `${at}.type`, message: `${at}.type must be one of: HEADER, BODY, FOOTER, BUTTONS` });
    }
    if (seen.has(type)) errors.push({ field: `${at}.type`, message: `a template has at most one ${type}` });
    seen.set(type, i);
    if (type === 'BODY') {
      const t = text(component, `${at}.text`, LIMITS.body, errors);
      const n = t === null ? 0 : variableCount(t, `${at}.text`, errors);
      if (n > 0 && examples(component, 'body_text')?.length !== n) {
        errors.push({ field: `${at}.example.body_text`, message: `${at}.example.body_text must give one example value per variable: [[${n} values]]` });
      }
    } else if (type === 'HEADER') {
      const format = component.format;
      if (!(HEADER_FORMATS as readonly unknown[]).includes(format)) {
        errors.push({ field: `${at}.format`, message: `${at}.format must be one of: ${HEADER_FORMATS.join(', ')}` });
      } else if (format === 'TEXT') {
        const t = text(component, `${at}.text`, LIMITS.header, errors);
        const n = t === null ? 0 : variableCount(t, `${at}.text`, errors);
        if (n > 1) errors.push({ field: `${at}.text`, message: `${at}.text may have at most one variable` });
        if (n === 1 && examples(component, 'header_text')?.length !== 1) {
          errors.push({ field: `${at}.example.header_text`, message: `${at}.example.header_text must give an example value for {{1}}` });
        }
      }
    } else if (type === 'FOOTER') {
      const t = text(component, `${at}.text`, LIMITS.footer, errors);
      if (t !== null && variablesOf(t).length > 0) errors.push({ field: `${at}.text`, message: `${at}.text may not have variables` });
    } else {
      buttonProblems(component.buttons, `${at}.buttons`, errors);
    }
  });
  if (!seen.has('BODY')) errors.push({ field: 'components', message: 'components must include one BODY' });
  return errors;
}

function buttonProblems(buttons: unknown, at: string, errors: FieldError[]): void {
  if (!Array.isArray(buttons) || buttons.length === 0 || buttons.length > LIMITS.buttons) {
    errors.push({ field: at, message: `${at} must be an array of 1 to ${LIMITS.buttons} buttons` });
    return;
  }
  buttons.forEach((button, j) => {
    const field = `${at}[${j}]`;
    if (!isObject(button) || !(BUTTON_TYPES as readonly unknown[]).includes(button.type)) {
      return errors.push({ field: `${field}.type`, message: `${field}.type must be one of: ${BUTTON_TYPES.join(', ')}` });
    }
    if (button.type !== 'COPY_CODE') text(button, `${field}.text`, LIMITS.buttonText, errors);
    if (button.type === 'URL') {
      if (typeof button.url !== 'string' || !/^https?:\/\/\S+$/.test(button.url) || button.url.length > LIMITS.url) {
        errors.push({ field: `${field}.url`, message: `${field}.url must be an http(s) URL of at most ${LIMITS.url} characters` });
      } else if (variablesOf(button.url).length > 1 || (variablesOf(button.url).length === 1 && !/\{\{1\}\}$/.test(button.url))) {
        errors.push({ field: `${field}.url`, message: `${field}.url may have one variable, {{1}}, at its end` });
      }
    }
    if (button.type === 'PHONE_NUMBER' && (typeof button.phone_number !== 'string' || !/^\+?\d{4,19}$/.test(button.phone_number))) {
      errors.push({ field: `${field}.phone_number`, message: `${field}.phone_number must be a phone number of at most ${LIMITS.phone} characters` });
    }
  });
}

/** A send's placeholders, per component of the template: how many parameters each needs. */
interface Need {
  /** `header`, `body`, or `button` with its index. */
  type: 'header' | 'body' | 'button';
  index?: number;
  count: number;
  what: string;
}

function needsOf(components: readonly unknown[]): Need[] {
  const needs: Need[] = [];
  for (const c of components) {
    if (!isObject(c)) continue;
    if (c.type === 'BODY' && typeof c.text === 'string') {
      const n = new Set(variablesOf(c.text)).size;
      if (n > 0) needs.push({ type: 'body', count: n, what: `the body's ${n} variable(s)` });
    } else if (c.type === 'HEADER') {
      if (c.format === 'TEXT' && typeof c.text === 'string' && variablesOf(c.text).length > 0) needs.push({ type: 'header', count: 1, what: "the header's variable" });
      else if (c.format === 'IMAGE' || c.format === 'VIDEO' || c.format === 'DOCUMENT' || c.format === 'LOCATION') {
        needs.push({ type: 'header', count: 1, what: `the header's ${String(c.format).toLowerCase()}` });
      }
    } else if (c.type === 'BUTTONS' && Array.isArray(c.buttons)) {
      c.buttons.forEach((b, index) => {
        if (isObject(b) && b.type === 'URL' && typeof b.url === 'string' && variablesOf(b.url).length > 0) needs.push({ type: 'button', index, count: 1, what: `URL button ${index}'s variable` });
      });
    }
  }
  return needs;
}

/**
 * What is wrong with the parameters a send gives an approved template (Cloud API send shape: `components: [{type:
 * "body", parameters: [...]}, {type: "button", sub_type: "url", index: "0", parameters: [...]}]`): every placeholder
 * filled, no parameters for a component that has none. Empty when they fit.
 */
export function sendParameterProblems(definition: readonly unknown[], sent: readonly unknown[] | undefined): FieldError[] {
  const given = (sent ?? []).filter(isObject);
  const errors: FieldError[] = [];
  const field = 'template.components';
  const find = (need: Need) =>
    given.find((c) => String(c.type).toLowerCase() === need.type && (need.type !== 'button' || Number(c.index) === need.index));
  for (const need of needsOf(definition)) {
    const component = find(need);
    const count = Array.isArray(component?.parameters) ? component.parameters.length : 0;
    if (count !== need.count) {
      const label = need.type === 'button' ? `button ${need.index}` : need.type;
      errors.push({ field, message: `${field} must fill ${need.what}: the ${label} component needs ${need.count} parameter(s), ${count} given` });
    }
  }
  const needed = new Set(needsOf(definition).map((n) => (n.type === 'button' ? `button:${n.index}` : n.type)));
  for (const c of given) {
    const type = String(c.type).toLowerCase();
    const key = type === 'button' ? `button:${Number(c.index)}` : type;
    if (Array.isArray(c.parameters) && c.parameters.length > 0 && !needed.has(key)) {
      errors.push({ field, message: `${field} gives parameters to the ${type === 'button' ? `button ${String(c.index)}` : type} component, which has no placeholders` });
    }
  }
  return errors;
}
