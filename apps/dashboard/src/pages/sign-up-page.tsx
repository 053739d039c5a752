import { useState, type FormEvent } from 'react';
import type { Account } from '../api';
import { CopyableValue } from '../components/copy-button';
import { ErrorNotice } from '../components/feedback';
import { PageHeader } from '../components/page-header';
import { useAction } from '../components/use-async';
import { Link } from '../router';
import { useSession } from '../session/session';
import { NewPasswordField } from './new-password';

/** Creates an account and its owner (the person signing up), then shows the program credentials exactly once. */
export function SignUpPage() {
  const { api } = useSession();
  const [account, setAccount] = useState<Account>();
  const [name, setName] = useState('');
  const [ownerName, setOwnerName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await action.run(() => api.signUpWithPassword({ name: name.trim(), email: email.trim(), password, ...(ownerName.trim() ? { owner_name: ownerName.trim() } : {}) }));
    if (created) setAccount(created);
  };

  if (account) return <NewCredentials account={account} email={email.trim()} password={password} />;
  return (
    <section className="narrow">
      <PageHeader title="Create your Parley account">Your business gets a WhatsApp sandbox number at once, so you can try everything.</PageHeader>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          Business name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoComplete="organization" />
        </label>
        <label>
          Your name <span className="muted">(optional: how your team sees you)</span>
          <input value={ownerName} onChange={(e) => setOwnerName(e.target.value)} maxLength={200} autoComplete="name" />
        </label>
        <label>
          Your email
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
        </label>
        <NewPasswordField value={password} onChange={setPassword} label="Password" />
        <ErrorNotice error={action.error} />
        <button type="submit" disabled={action.pending}>
          {action.pending ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <p>
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </section>
  );
}

/** The account's program credentials, once; then the owner's session starts (the password was just chosen). */
function NewCredentials({ account, email, password }: { account: Account; email: string; password: string }) {
  const { signInWithPassword } = useSession();
  const [saved, setSaved] = useState(false);
  const action = useAction();

  const continueToDashboard = () => action.run(() => signInWithPassword(email, password));

  return (
    <section className="narrow">
      <PageHeader title="Your account is ready" />
      <p className="notice notice-warning" role="alert">
        Copy these now and keep them somewhere safe. The client secret and the API key are shown <strong>only this once</strong>: Parley
        stores only their hashes and cannot show them again.
      </p>
      <dl className="credentials">
        <CopyableValue label="Tenant ID" value={account.tenant_id} />
        <CopyableValue label="Client ID" value={account.client_id} />
        <CopyableValue label="Client secret" value={account.client_secret} />
        <CopyableValue label="API key" value={account.api_key} />
      </dl>
      <label className="checkbox">
        <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />I have saved my client secret and API key
      </label>
      <ErrorNotice error={action.error} />
      <button type="button" disabled={!saved || action.pending} onClick={() => void continueToDashboard()}>
        Continue to the dashboard
      </button>
    </section>
  );
}
