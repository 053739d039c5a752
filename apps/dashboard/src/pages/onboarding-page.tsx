import { useQuery } from '@tanstack/react-query';
import type { InboxFilter } from '../api';
import { ErrorNotice, Loading } from '../components/feedback';
import { countOf } from '../components/format';
import { useLiveQuery } from '../components/live-query';
import { PageHeader } from '../components/page-header';
import { errorText } from '../components/problem-text';
import { Link } from '../router';
import { useCan, type Permission } from '../session/permissions';
import { useApi } from '../session/session';
import { INBOX_LIVE } from './inbox/inbox-live';

interface Step {
  title: string;
  /** undefined: not known to this member (their role cannot read it, so it is not asked). */
  done: boolean | undefined;
  detail: string;
  /** The page that does it (none: nothing left to do there). */
  to?: string;
  action?: string;
  /** Who may do the step; a member without it sees who does it instead of a link. */
  requires?: Permission;
}

const PLAYGROUND_ONLY: InboxFilter & { source: 'playground' } = { source: 'playground' };

/**
 * Get started: the owner's way from a new account to an AI agent answering customers, ticked from what the account
 * really has. Only what the member's role may read is asked (no request that could only answer 403).
 */
export function OnboardingPage() {
  const api = useApi();
  const can = useCan();
  // Read again on every visit, and the Playground step live: the conversation a first question starts is recorded a
  // moment after the question is written, often after the owner came back here.
  const channels = useLiveQuery(['channels'], () => api.listChannels());
  const agents = useLiveQuery(['agents'], () => api.listAgents());
  const tried = useLiveQuery(['conversations', PLAYGROUND_ONLY], () => api.inbox(PLAYGROUND_ONLY), INBOX_LIVE);
  const team = useQuery({ queryKey: ['team'], queryFn: () => api.listTeam(), enabled: can('team.manage'), refetchOnMount: 'always' });
  const loading = channels.loading || agents.loading || tried.loading || (can('team.manage') && team.isPending);
  const error = channels.error ?? agents.error ?? tried.error ?? (team.error ? errorText(team.error) : undefined);

  const numbers = channels.data?.data.length ?? 0;
  const agentCount = agents.data?.data.length ?? 0;
  const others = team.data ? team.data.data.length - 1 : undefined;
  const steps: Step[] = [
    { title: 'Name your business', done: true, detail: 'Done when you signed up: your customers and your team see this name.' },
    {
      title: 'Connect a number (WhatsApp, SMS or email)',
      done: numbers > 0,
      detail: numbers > 0 ? `${countOf(numbers, 'channel')} connected.` : 'Where your customers reach you.',
      to: '/channels',
      action: 'Connect a channel',
      requires: 'channels.manage',
    },
    {
      title: 'Create your AI agent',
      done: agentCount > 0,
      detail: agentCount > 0 ? `${countOf(agentCount, 'AI agent')}.` : 'Say in plain words what your business does and how to answer.',
      to: '/agents',
      action: 'Create an AI agent',
      requires: 'agents.manage',
    },
    {
      title: 'Ask it a first question in the Playground',
      done: (tried.data?.data.length ?? 0) > 0,
      detail: 'Write as a customer would and watch your AI agent answer.',
      to: '/playground',
      action: 'Open the Playground',
      requires: 'messages.send',
    },
    {
      title: 'Invite your team',
      done: others === undefined ? undefined : others > 0,
      detail: others ? `${countOf(others, 'team member')} besides you.` : 'Team members answer the conversations your AI agent hands over.',
      to: '/team',
      action: 'Invite a team member',
      requires: 'team.manage',
    },
  ];
  const known = steps.filter((s) => s.done !== undefined);
  const doneCount = known.filter((s) => s.done).length;

  return (
    <section>
      <PageHeader title="Get started">From a new account to an AI agent answering your customers.</PageHeader>
      {error && <ErrorNotice error={error} />}
      {loading ? (
        <Loading what="your progress" />
      ) : (
        <>
          <p aria-live="polite">
            <strong>
              {doneCount} of {known.length}
            </strong>{' '}
            steps done.
          </p>
          <ol className="checklist">
            {steps.map((s) => {
              const allowed = !s.requires || can(s.requires);
              return (
                <li key={s.title} className={s.done ? 'done' : ''} data-done={s.done ?? 'unknown'}>
                  <span className="tick" aria-hidden="true">
                    {s.done ? '✓' : '○'}
                  </span>
                  <div>
                    <strong>{s.title}</strong>
                    <span className="visually-hidden">{s.done ? ' (done)' : s.done === false ? ' (to do)' : ''}</span>
                    <p className="muted">{allowed ? s.detail : 'An owner or an admin of your team does this.'}</p>
                  </div>
                  {allowed && s.to && (
                    <Link to={s.to} className="button-link">
                      {s.action}
                    </Link>
                  )}
                </li>
              );
            })}
          </ol>
          {can('credentials.manage') && (
            <p className="muted">
              Connecting your own software? API keys and webhooks are under <Link to="/webhooks">Settings → Developers</Link>.
            </p>
          )}
        </>
      )}
    </section>
  );
}
