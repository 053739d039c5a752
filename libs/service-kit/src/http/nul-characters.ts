import type { FieldError } from '@parley/contracts';

const NUL = '\u0000';
/** Enough to show the caller what to fix without echoing a whole hostile body back. */
const MAX_ERRORS = 20;

/**
 * Every place in a request value (deeply, object keys too) holding a NUL character, as field errors. PostgreSQL
 * text cannot store U+0000, so such a value must be refused as bad input before it reaches a query.
 * Walks iteratively: a deeply nested JSON body must not overflow the stack.
 */
export function nulCharacterErrors(value: unknown, root = ''): FieldError[] {
  const errors: FieldError[] = [];
  const pending: [unknown, string][] = [[value, root]];
  while (pending.length > 0 && errors.length < MAX_ERRORS) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) errors.push(nulError(path || 'value'));
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push([current[i], `${path}[${i}]`]);
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, child] of Object.entries(current).reverse()) {
        const childPath = path ? `${path}.${printable(key)}` : printable(key);
        if (key.includes(NUL)) errors.push(nulError(childPath));
        pending.push([child, childPath]);
      }
    }
  }
  return errors.slice(0, MAX_ERRORS);
}

function nulError(field: string): FieldError {
  return { field, message: `${field} must not contain NUL (U+0000) characters` };
}

/** The path is echoed in the answer: show a NUL in a key as its escape, not the raw character. */
function printable(key: string): string {
  return key.replaceAll(NUL, '\\u0000');
}
