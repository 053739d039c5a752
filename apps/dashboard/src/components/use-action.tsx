import { useCallback, useMemo, useRef, useState } from 'react';
import { ApiError } from '../api';
import { errorText, fieldSentence } from './problem-text';

interface ActionFailure {
  /** The problem's `detail` (or the error's message). */
  detail: string;
  /** Field path (`to`, `faqs[0].question`) → the sentence for people; removed once the person edits that field. */
  fields: Record<string, string>;
  /** The refusal's HTTP status (402: the wallet cannot pay), when the server refused. */
  status?: number;
}

/** The id of the element saying what is wrong with a field (for `aria-describedby`). */
const fieldErrorId = (scope: string, field: string) => `${scope}-error-${field.replace(/[^\w-]/g, '-')}`;

/**
 * Runs one user action at a time (a form submit, a button), exposing its pending state and error. A refused request's
 * field errors are tied to their inputs: spread `bind('to')` on the input (`aria-invalid`, `aria-describedby`, and
 * editing it clears its error) and render `fieldError('to')` below it.
 */
export function useAction() {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ActionFailure>();
  const scope = useRef(`action-${Math.random().toString(36).slice(2, 8)}`).current;
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setPending(true);
    setFailure(undefined);
    try {
      return await action();
    } catch (err) {
      const fields = err instanceof ApiError ? Object.fromEntries(err.fieldErrors.map((e) => [e.field, fieldSentence(e.field, e.message)])) : {};
      setFailure({ detail: err instanceof ApiError ? err.message : errorText(err), fields, status: err instanceof ApiError ? err.status : undefined });
      return undefined;
    } finally {
      setPending(false);
    }
  }, []);
  const clearField = useCallback(
    (field: string) =>
      setFailure((f) => {
        if (!f?.fields[field]) return f;
        const fields = { ...f.fields };
        delete fields[field];
        // The problem was only about fields, and each has been corrected: nothing left to say.
        return Object.keys(fields).length === 0 ? undefined : { ...f, fields };
      }),
    [],
  );
  const error = useMemo(() => (failure ? [failure.detail, ...Object.values(failure.fields)].join(' ') : undefined), [failure]);
  /** The refused fields `field` names: itself, or with `nested` also those below it (`members` → `members[0]`). */
  const fieldsOf = (field: string, nested?: boolean) =>
    Object.keys(failure?.fields ?? {}).filter((f) => f === field || (nested && (f.startsWith(`${field}.`) || f.startsWith(`${field}[`))));
  const bind = (field: string, { nested }: { nested?: boolean } = {}) => {
    const fields = fieldsOf(field, nested);
    const invalid = fields.length > 0;
    return {
      'aria-invalid': invalid || undefined,
      'aria-describedby': invalid ? fields.map((f) => fieldErrorId(scope, f)).join(' ') : undefined,
      onInput: () => fields.forEach(clearField),
    };
  };
  const fieldError = (field: string, { nested }: { nested?: boolean } = {}) => {
    const fields = fieldsOf(field, nested);
    return fields.length > 0 ? (
      <>
        {fields.map((f) => (
          <span className="field-error" id={fieldErrorId(scope, f)} key={f}>
            {failure?.fields[f]}
          </span>
        ))}
      </>
    ) : null;
  };
  return { pending, error, refusedStatus: failure?.status, run, bind, fieldError, clearField, clearError: () => setFailure(undefined) };
}
