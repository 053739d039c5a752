import type { FieldError } from '@parley/contracts';

const NUL = '\u0000';
/** Enough to show the caller what to fix without echoing a whole hostile body back. */
const MAX_ERRORS = 20;

/** A UTF-16 surrogate without its pair (JSON's `"\ud800"`): no Unicode character, so not UTF-8 text either. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Every place in a request value (deeply, object keys too) holding text that cannot be stored or checked, as field
 * errors: a NUL character (PostgreSQL text cannot store U+0000) or a lone surrogate (not Unicode: PostgreSQL refuses
 * it, and validators that encode text throw on it). Refused as bad input before any rule or query sees it.
 * Walks iteratively: a deeply nested JSON body must not overflow the stack.
 */
export function unstorableTextErrors(value: unknown, root = ''): FieldError[] {
  const errors: FieldError[] = [];
  const pending: [unknown, string][] = [[value, root]];
  while (pending.length > 0 && errors.length < MAX_ERRORS) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) errors.push(nulError(path || 'value'));
      else if (LONE_SURROGATE.test(current)) errors.push(surrogateError(path || 'value'));
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push([current[i], `${path}[${i}]`]);
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, child] of Object.entries(current).reverse()) {
        const childPath = path ? `${path}.${printable(key)}` : printable(key);
        if (key.includes(NUL)) errors.push(nulError(childPath));
        else if (LONE_SURROGATE.test(key)) errors.push(surrogateError(childPath));
        pending.push([child, childPath]);
      }
    }
  }
  return errors.slice(0, MAX_ERRORS);
}

function nulError(field: string): FieldError {
  return { field, message: `${field} must not contain NUL (U+0000) characters` };
}

function surrogateError(field: string): FieldError {
  return { field, message: `${field} must be well-formed Unicode text (it holds half of a surrogate pair, such as \\ud800, alone)` };
}

/** The path is echoed in the answer: show a NUL in a key as its escape, not the raw character. */
function printable(key: string): string {
  return key.replaceAll(NUL, '\\u0000').replace(new RegExp(LONE_SURROGATE.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
