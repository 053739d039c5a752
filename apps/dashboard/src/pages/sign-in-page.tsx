import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../components/feedback';
import { PageHeader } from '../components/page-header';
import { useAction } from '../components/use-async';
import { Link, useRouter } from '../router';
import { useSession } from '../session/session';

type Method = 'api-key' | 'client-credentials';

/** Sign in with an API key, or with the client id and secret (exchanged for an access token). */
export function SignInPage() {
  const { api, signIn, signedOutBecause } = useSession();
  const { navigate } = useRouter();
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
        return { token: apiKey.trim(), via: 'API key' as const };
      }
      const { access_token } = await api.exchangeClientCredentials(clientId.trim(), clientSecret.trim());
      return { token: access_token, via: 'client credentials' as const };
    });
    if (!session) return;
    signIn(session);
    navigate('/');
  };

  return (
    <section className="narrow">
      <PageHeader title="Sign in to Parley" />
      {signedOutBecause && <p className="notice">{signedOutBecause}</p>}
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
              <input value={clientId} onChange={(e) => setClientId(e.target.value)} required autoComplete="username" />
            </label>
            <label>
              Client secret
              <input type="password" value={clientSecret} onChange={(e) => setClientSecret(e.target.value)} required autoComplete="current-password" />
            </label>
          </>
        )}
        <ErrorNotice error={action.error} />
        <button type="submit" disabled={action.pending}>
          {action.pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        New to Parley? <Link to="/sign-up">Create an account</Link>
      </p>
    </section>
  );
}
