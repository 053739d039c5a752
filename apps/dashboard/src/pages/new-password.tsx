/** The gateway's rule for a new password (CONTRACT §12). */
export const MIN_PASSWORD_LENGTH = 10;

/** The one-time token of an invite or reset link (`?token=…`). */
export function tokenFromUrl(): string {
  return new URLSearchParams(window.location.search).get('token') ?? '';
}

/** A new password, with its rule read out beside it. */
export function NewPasswordField({ value, onChange, label = 'New password' }: { value: string; onChange(value: string): void; label?: string }) {
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
          aria-describedby="password-rule"
        />
      </label>
      <p id="password-rule" className="small muted">
        At least {MIN_PASSWORD_LENGTH} characters.
      </p>
    </>
  );
}
