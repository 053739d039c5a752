import { PageHeader } from '../../components/page-header';
import { useRouter } from '../../router';
import { InboxList } from './inbox-list';
import { useTeamMembers } from './team-members';
import { Thread } from './thread';
import './inbox.css';

/**
 * The inbox: conversations where a person answers (CONTRACT §12). `/inbox` lists them; `/inbox/{id}` opens one beside
 * the list on a wide screen (with the contact beside the thread), or on its own screen on a phone (the list then
 * hides; the thread links back).
 */
export function InboxPage() {
  const { path } = useRouter();
  const openId = path.startsWith('/inbox/') ? decodeURIComponent(path.slice('/inbox/'.length)) : undefined;
  const members = useTeamMembers();

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
