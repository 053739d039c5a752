import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../components/feedback';
import { PageHeader } from '../components/page-header';
import { useAction } from '../components/use-action';
import { Link } from '../router';
import { useSession } from '../session/session';
import { NewPasswordField, tokenFromUrl } from './new-password';

/** Asks for a reset link by email (in development the gateway writes the link to its log). */
export function ForgotPasswordPage() {
  const { api } = useSession();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ((await action.run(() => api.requestPasswordReset(email.trim()))) !== undefined) setSent(true);
  };

  return (
    <section className="narrow">
      <PageHeader title="Reset your password" />
      {sent ? (
        <p className="notice notice-success" role="status">
          If {email.trim()} belongs to a team member, a link to choose a new password is on its way. It works once, for a short time.
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="form">
          <label>
            Email
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
          </label>
          <ErrorNotice error={action.error} />
          <button type="submit" disabled={action.pending}>
            Send me a reset link
          </button>
        </form>
      )}
      <p>
        <Link to="/sign-in">Back to sign-in</Link>
      </p>
    </section>
  );
}

/** The reset link's page: a new password for the token in the URL. */
export function ResetPasswordPage() {
  const { api } = useSession();
  const [token] = useState(tokenFromUrl);
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ((await action.run(() => api.confirmPasswordReset(token, password))) !== undefined) setDone(true);
  };

  return (
    <section className="narrow">
      <PageHeader title="Choose a new password" />
      {!token ? (
        <p className="notice notice-error" role="alert">
          This link has no reset token. Open the link from the email again, or <Link to="/forgot-password">ask for a new one</Link>.
        </p>
      ) : done ? (
        <p className="notice notice-success" role="status">
          Your password is changed. <Link to="/sign-in">Sign in</Link> with it.
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="form">
          <NewPasswordField value={password} onChange={setPassword} />
          <ErrorNotice error={action.error} />
          <button type="submit" disabled={action.pending}>
            Save the new password
          </button>
        </form>
      )}
    </section>
  );
}
