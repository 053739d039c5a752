import { ApiError, type Member } from '../../api';
import { useAsync } from '../../components/use-async';
import { PageHeader } from '../../components/page-header';
import { useRouter } from '../../router';
import { useApi, useMember } from '../../session/session';
import { InboxList } from './inbox-list';
import { Thread } from './thread';

/**
 * The inbox: conversations where a person answers (CONTRACT §12). `/inbox` lists them; `/inbox/{id}` opens one beside
 * the list on a wide screen, or on its own screen on a phone (the list then hides; the thread links back).
 */
export function InboxPage() {
  const api = useApi();
  const me = useMember();
  const { path } = useRouter();
  const openId = path.startsWith('/inbox/') ? decodeURIComponent(path.slice('/inbox/'.length)) : undefined;
  // The team, to name assignees and pick one; a role that may not read the team still assigns itself.
  const team = useAsync(
    () =>
      api.listTeam().then(
        (page) => page.data,
        (err: unknown) => {
          if (err instanceof ApiError && err.status === 403) return me ? [me] : [];
          throw err;
        },
      ),
    'inbox-team',
  );
  const members: readonly Member[] = team.data ?? [];

  return (
    <section className={`inbox${openId ? ' inbox-thread-open' : ''}`}>
      <PageHeader title="Inbox">Conversations your team answers, live. Take one over to reply as yourself.</PageHeader>
      <div className="inbox-panes">
        <InboxList openId={openId} members={members} />
        {openId ? (
          <Thread key={openId} id={openId} members={members} />
        ) : (
          <div className="inbox-placeholder empty">Choose a conversation to read it and reply.</div>
        )}
      </div>
    </section>
  );
}
