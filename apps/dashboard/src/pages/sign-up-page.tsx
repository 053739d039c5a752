import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../components/feedback';
import { PageHeader } from '../components/page-header';
import { useAction } from '../components/use-action';
import { Link } from '../router';
import { useSession } from '../session/session';
import { NewPasswordField } from './new-password';

/**
 * Creates an account and its owner (the person signing up) and signs the owner in: sign-up ends in the product (Get
 * started), not on a screen of credentials. Programs' credentials are made on request under Settings → Developers.
 */
export function SignUpPage() {
  const { api, signInWithPassword } = useSession();
  const [name, setName] = useState('');
  const [ownerName, setOwnerName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.run(async () => {
      await api.signUpWithPassword({ name: name.trim(), email: email.trim(), password, ...(ownerName.trim() ? { owner_name: ownerName.trim() } : {}) });
      // the shell then opens Get started
      await signInWithPassword(email.trim(), password);
    });
  };

  return (
    <section className="narrow">
      <PageHeader title="Create your Parley account">Your business gets a WhatsApp sandbox number at once, so you can try everything.</PageHeader>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          Business name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoComplete="organization" {...action.bind('name')} />
        </label>
        {action.fieldError('name')}
        <label>
          Your name <span className="muted">(optional: how your team sees you)</span>
          <input value={ownerName} onChange={(e) => setOwnerName(e.target.value)} maxLength={200} autoComplete="name" {...action.bind('owner_name')} />
        </label>
        {action.fieldError('owner_name')}
        <label>
          Your email
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" {...action.bind('email')} />
        </label>
        {action.fieldError('email')}
        <NewPasswordField value={password} onChange={setPassword} label="Password" binding={action.bind('password')} />
        {action.fieldError('password')}
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
