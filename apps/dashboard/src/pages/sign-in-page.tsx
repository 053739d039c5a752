import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../components/feedback';
import { PageHeader } from '../components/page-header';
import { useAction } from '../components/use-action';
import { Link } from '../router';
import { useSession } from '../session/session';

/** Sign in as a team member (email and password); a program credential stays available as a second way in. */
export function SignInPage() {
  const { signInWithPassword, signedOutBecause } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [withCredential, setWithCredential] = useState(false);
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Signed in, the app leaves this page for the one asked for (or the start).
    await action.run(() => signInWithPassword(email.trim(), password));
  };

  return (
    <section className="narrow">
      <PageHeader title="Sign in to Parley" />
      {signedOutBecause && <p className="notice">{signedOutBecause}</p>}
      {withCredential ? (
        <CredentialSignIn onBack={() => setWithCredential(false)} />
      ) : (
        <>
          <form onSubmit={(e) => void submit(e)} className="form">
            <label>
              Email
              <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="username" />
            </label>
            <label>
              Password
              <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} required autoComplete="current-password" />
            </label>
            <SignInEnd action={action} />
          </form>
          <p>
            <Link to="/forgot-password">Forgot your password?</Link>
          </p>
          <p>
            <button type="button" className="link-button" onClick={() => setWithCredential(true)}>
              Sign in with an API key instead
            </button>
          </p>
        </>
      )}
      <p>
        New to Parley? <Link to="/sign-up">Create an account</Link>
      </p>
    </section>
  );
}

type Method = 'api-key' | 'client-credentials';

/** A program's credential: an API key, or a client id and secret exchanged for an access token. Kept for this tab only. */
function CredentialSignIn({ onBack }: { onBack(): void }) {
  const { api, signInWithCredential } = useSession();
  const [method, setMethod] = useState<Method>('api-key');
  const [apiKey, setApiKey] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const session = await action.run(async () => {
      if (method === 'api-key') {
        // Checked before it is kept, so a mistyped key fails here rather than on the next page.
        await api.usageWith(apiKey.trim());
        return { kind: 'credential' as const, token: apiKey.trim(), via: 'API key' as const };
      }
      const { access_token } = await api.exchangeClientCredentials(clientId.trim(), clientSecret.trim());
      return { kind: 'credential' as const, token: access_token, via: 'client credentials' as const };
    });
    if (session) signInWithCredential(session);
  };

  return (
    <>
      <p className="muted">A program&rsquo;s credential signs in this tab only; a reload signs out.</p>
      <form onSubmit={(e) => void submit(e)} className="form">
        <fieldset className="choices">
          <legend>Sign in with</legend>
          <label className="radio">
            <input type="radio" name="method" checked={method === 'api-key'} onChange={() => setMethod('api-key')} />
            API key
          </label>
          <label className="radio">
            <input type="radio" name="method" checked={method === 'client-credentials'} onChange={() => setMethod('client-credentials')} />
            Client ID and secret
          </label>
        </fieldset>
        {method === 'api-key' ? (
          <label>
            API key
            <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} required autoComplete="off" />
          </label>
        ) : (
          <>
            <label>
              Client ID
              <input value={clientId} onChange={(e) => setClientId(e.target.value)} required autoComplete="off" />
            </label>
            <label>
              Client secret
              <input type="password" value={clientSecret} onChange={(e) => setClientSecret(e.target.value)} required autoComplete="off" />
            </label>
          </>
        )}
        <SignInEnd action={action} />
      </form>
      <p>
        <button type="button" className="link-button" onClick={onBack}>
          Sign in with email and password
        </button>
      </p>
    </>
  );
}

/** How either way of signing in ends: why the last try failed, if it did, and the button. */
function SignInEnd({ action }: { action: ReturnType<typeof useAction> }) {
  return (
    <>
      <ErrorNotice error={action.error} />
      <button type="submit" disabled={action.pending}>
        {action.pending ? 'Signing in…' : 'Sign in'}
      </button>
    </>
  );
}
