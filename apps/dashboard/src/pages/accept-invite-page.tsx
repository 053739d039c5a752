import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../components/feedback';
import { PageHeader } from '../components/page-header';
import { useAction } from '../components/use-action';
import { Link, useRouter } from '../router';
import { useSession } from '../session/session';
import { NewPasswordField, tokenFromUrl } from './new-password';

/** An invite link's page: the invited member chooses a password, then signs in with it. */
export function AcceptInvitePage() {
  const { api, signInWithPassword } = useSession();
  const { navigate } = useRouter();
  const [token] = useState(tokenFromUrl);
  const [password, setPassword] = useState('');
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.run(async () => {
      const member = await api.acceptInvite(token, password);
      await signInWithPassword(member.email, password);
      navigate('/inbox');
    });
  };

  return (
    <section className="narrow">
      <PageHeader title="Join your team on Parley">Choose the password you will sign in with.</PageHeader>
      {!token ? (
        <p className="notice notice-error" role="alert">
          This link has no invite token. Open the link you were sent again, or ask the person who invited you for a new one.
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="form">
          <NewPasswordField value={password} onChange={setPassword} label="Password" />
          <ErrorNotice error={action.error} />
          <button type="submit" disabled={action.pending}>
            {action.pending ? 'Joining…' : 'Join the team'}
          </button>
        </form>
      )}
      <p>
        Already a member? <Link to="/sign-in">Sign in</Link>
      </p>
    </section>
  );
}
