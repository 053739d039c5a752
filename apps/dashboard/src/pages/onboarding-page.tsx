import { AsyncView } from '../components/feedback';
import { countOf } from '../components/format';
import { PageHeader } from '../components/page-header';
import { useAsync } from '../components/use-async';
import { Link } from '../router';
import { useApi } from '../session/session';

interface Progress {
  numbers: number;
  agents: number;
  sent: number;
  webhooks: number;
}

/** The five onboarding steps of the product, ticked from what the account really has. */
export function OnboardingPage() {
  const api = useApi();
  const state = useAsync<Progress>(async () => {
    const [channels, agents, sent, webhooks] = await Promise.all([api.listChannels(), api.listAgents(), api.listMessages({ direction: 'outbound' }), api.listWebhooks()]);
    return { numbers: channels.data.length, agents: agents.data.length, sent: sent.data.length, webhooks: webhooks.data.length };
  }, 'onboarding');

  return (
    <section>
      <PageHeader title="Get started">Five steps from a new account to an agent answering your customers on WhatsApp.</PageHeader>
      <AsyncView state={state} what="your progress">
        {(p) => {
          const steps = [
            { done: true, title: 'Create your account', detail: 'Done: you are signed in.', to: '/api-keys', action: 'Manage API keys' },
            { done: p.numbers > 0, title: 'Connect a WhatsApp number', detail: `${countOf(p.numbers, 'number')} connected.`, to: '/channels', action: 'Connect a number' },
            { done: p.agents > 0, title: 'Configure an agent', detail: `${countOf(p.agents, 'agent')}.`, to: '/agents', action: 'Create an agent' },
            { done: p.sent > 0, title: 'Send a message', detail: p.sent > 0 ? 'You have sent messages.' : 'Nothing sent yet.', to: '/messages', action: 'Send a message' },
            { done: p.webhooks > 0, title: 'Register your webhook URL', detail: `${countOf(p.webhooks, 'endpoint')}.`, to: '/webhooks', action: 'Add a webhook' },
          ];
          const doneCount = steps.filter((s) => s.done).length;
          return (
            <>
              <p aria-live="polite">
                <strong>
                  {doneCount} of {steps.length}
                </strong>{' '}
                steps done.
              </p>
              <ol className="checklist">
                {steps.map((s) => (
                  <li key={s.title} className={s.done ? 'done' : ''} data-done={s.done}>
                    <span className="tick" aria-hidden="true">
                      {s.done ? '✓' : '○'}
                    </span>
                    <div>
                      <strong>{s.title}</strong>
                      <span className="visually-hidden">{s.done ? ' (done)' : ' (to do)'}</span>
                      <p className="muted">{s.detail}</p>
                    </div>
                    <Link to={s.to} className="button-link">
                      {s.action}
                    </Link>
                  </li>
                ))}
              </ol>
              <p>
                Then try it in the <Link to="/playground">playground</Link>: write as a customer and watch your agent answer.
              </p>
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}
