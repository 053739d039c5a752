import { useState, type FormEvent } from 'react';
import { MEMBER_ROLES, type InvitedMember, type Member, type MemberRole } from '../../api';
import { CopyableValue } from '../../components/copy-button';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { PageHeader } from '../../components/page-header';
import { useAction } from '../../components/use-action';
import { useApi, useMember } from '../../session/session';
import { DataTable } from '../../components/data-table';

const ROLE_HELP: Record<MemberRole, string> = {
  owner: 'everything, including other owners',
  admin: 'everything but managing owners: AI agents, channels, campaigns, billing, the team and the developer settings',
  agent: 'the inbox, contacts and the playground: answering customers, notes, contacts and deals; not AI agents, channels, campaigns, billing, the team or the developer settings',
};

/** The team: who can sign in, with which role; invites (their link shown once), role changes and removals. */
export function TeamPage() {
  const api = useApi();
  const me = useMember();
  const team = useLiveQuery(['team'], () => api.listTeam());
  const [invited, setInvited] = useState<InvitedMember>();
  const action = useAction();

  const changeRole = async (member: Member, role: MemberRole) => {
    await action.run(() => api.changeRole(member.id, role));
    team.reload();
  };
  const remove = async (member: Member) => {
    if (!window.confirm(`Remove ${member.name} (${member.email}) from the team? They are signed out and cannot sign in again.`)) return;
    await action.run(() => api.removeMember(member.id));
    team.reload();
  };

  return (
    <section>
      <PageHeader title="Team">The people who sign in to this dashboard and answer customers in the inbox.</PageHeader>
      <InviteForm
        onInvited={(member) => {
          setInvited(member);
          team.reload();
        }}
      />
      {invited && (
        <div className="notice notice-success" role="status">
          An invitation is on its way to {invited.email}. Opening its link, {invited.name} chooses a password and joins as {invited.role}. The
          same link is here too, shown only this once, should the mail not arrive.
          <dl>
            <CopyableValue label="Invite link" value={invited.invite_url} />
          </dl>
        </div>
      )}
      <ErrorNotice error={action.error} />
      <AsyncView state={team} what="the team">
        {(page) => (
          <div className="table-wrap">
            <DataTable
              caption="Team members"
              rows={page.data}
              rowKey={(m) => m.id}
              rowProps={() => ({ 'data-testid': 'team-member' })}
              columns={[
                {
                  header: 'Name',
                  cell: (m) => (
                    <>
                      {m.name}
                      {m.id === me?.id && <span className="badge">you</span>}
                    </>
                  ),
                },
                { header: 'Email', cell: (m) => m.email },
                {
                  header: 'Role',
                  cell: (m) => (
                    <select aria-label={`Role of ${m.name}`} value={m.role} disabled={m.id === me?.id || action.pending} onChange={(e) => void changeRole(m, e.target.value as MemberRole)}>
                      {MEMBER_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </select>
                  ),
                },
                { header: 'Status', cell: (m) => (m.status === 'invited' ? <span className="badge badge-warning">invited</span> : 'active') },
                {
                  header: 'Actions',
                  hiddenHeader: true,
                  cell: (m) =>
                    m.id !== me?.id && (
                      <button type="button" className="danger button-small" onClick={() => void remove(m)} aria-label={`Remove ${m.name}`}>
                        Remove
                      </button>
                    ),
                },
              ]}
            />
          </div>
        )}
      </AsyncView>
    </section>
  );
}

function InviteForm({ onInvited }: { onInvited(member: InvitedMember): void }) {
  const api = useApi();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('agent');
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const member = await action.run(() => api.invite({ name: name.trim(), email: email.trim(), role }));
    if (!member) return;
    setName('');
    setEmail('');
    onInvited(member);
  };

  return (
    <form className="form card" onSubmit={(e) => void submit(e)} aria-label="Invite a team member">
      <h2>Invite a member</h2>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoComplete="off" />
      </label>
      <label>
        Email
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="off" />
      </label>
      <label>
        Role
        <select value={role} onChange={(e) => setRole(e.target.value as MemberRole)} aria-describedby="role-help">
          {MEMBER_ROLES.filter((r) => r !== 'owner').map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <p id="role-help" className="small muted">
        An {role} may use {ROLE_HELP[role]}.
      </p>
      <ErrorNotice error={action.error} />
      <button type="submit" disabled={action.pending}>
        {action.pending ? 'Inviting…' : 'Invite'}
      </button>
    </form>
  );
}
