/** The gateway's rule for a new password (CONTRACT §12). */
export const MIN_PASSWORD_LENGTH = 10;

/** The one-time token of an invite or reset link (`?token=…`). */
export function tokenFromUrl(): string {
  return new URLSearchParams(window.location.search).get('token') ?? '';
}

/** What `useAction().bind(field)` spreads on an input: its field error's state and id, and clearing it on edit. */
interface FieldBinding {
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  onInput(): void;
}

/** A new password, with its rule read out beside it (and, with `binding`, what the server said is wrong with it). */
export function NewPasswordField({
  value,
  onChange,
  label = 'New password',
  binding,
}: {
  value: string;
  onChange(value: string): void;
  label?: string;
  binding?: FieldBinding;
}) {
  return (
    <>
      <label>
        {label}
        <input
          type="password"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          required
          minLength={MIN_PASSWORD_LENGTH}
          autoComplete="new-password"
          aria-invalid={binding?.['aria-invalid']}
          aria-describedby={['password-rule', binding?.['aria-describedby']].filter(Boolean).join(' ')}
          onInput={binding?.onInput}
        />
      </label>
      <p id="password-rule" className="small muted">
        At least {MIN_PASSWORD_LENGTH} characters.
      </p>
    </>
  );
}
