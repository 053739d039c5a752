import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Team } from '../../api';
import { DataTable } from '../../components/data-table';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { PageHeader } from '../../components/page-header';
import { useAction } from '../../components/use-action';
import { useApi, useMember } from '../../session/session';
import { useTeamMembers } from '../inbox/team-members';
import { RoutingRules } from './routing-rules';
import { TeamForm } from './team-form';
import { ROUTING_WORDS, TEAMS_KEY, listInWords, memberNames, openingText, useTeams } from './teams-data';
import './teams.css';

/** Which form is open: none, a new team's, or a team's being edited (by id). */
type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; id: string };

/**
 * Teams (CONTRACT.md §18): who answers which conversations, how each team shares them out, when it is open and how
 * fast it should answer; and the routing rules that pick a team for each conversation the AI agent hands over.
 */
export function TeamsPage() {
  const api = useApi();
  const me = useMember();
  const queries = useQueryClient();
  const teams = useTeams();
  const people = useTeamMembers();
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [done, setDone] = useState<string>();
  const action = useAction();

  const reload = () => void queries.invalidateQueries({ queryKey: TEAMS_KEY });
  const saved = (team: Team, verb: string) => {
    setEditing({ kind: 'none' });
    setDone(`${verb} the team ${team.name}.`);
    reload();
  };
  const remove = async (team: Team) => {
    if (!window.confirm(`Delete the team ${team.name}? Its routing rules go with it; its conversations stay with whoever holds them.`)) return;
    setDone(undefined);
    const deleted = await action.run(() => api.deleteTeam(team.id).then(() => true));
    if (!deleted) return;
    if (editing.kind === 'edit' && editing.id === team.id) setEditing({ kind: 'none' });
    setDone(`Deleted the team ${team.name}.`);
    reload();
    // conversations leave the deleted team
    void queries.invalidateQueries({ queryKey: ['inbox'] });
  };
  const edited = editing.kind === 'edit' ? teams.data?.data.find((t) => t.id === editing.id) : undefined;

  return (
    <section>
      <PageHeader title="Teams">
        Groups of people who answer the conversations the AI agent hands over: who is in each, how conversations are shared out, when each team is
        open and how fast it should answer.
      </PageHeader>
      {editing.kind === 'none' ? (
        <p>
          <button
            type="button"
            onClick={() => {
              setDone(undefined);
              setEditing({ kind: 'new' });
            }}
          >
            New team
          </button>
        </p>
      ) : (
        <TeamForm
          key={editing.kind === 'edit' ? editing.id : 'new'}
          team={edited}
          people={people}
          onSaved={(team) => saved(team, editing.kind === 'edit' ? 'Saved' : 'Created')}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      )}
      {done && (
        <p className="notice notice-success" role="status">
          {done}
        </p>
      )}
      <ErrorNotice error={action.error} />
      <AsyncView state={teams} what="the teams" isEmpty={(page) => page.data.length === 0} empty="No team yet. Make one with New team: its members then get the conversations the AI agent hands over.">
        {(page) => (
          <>
            <div className="table-wrap">
              <DataTable
                caption="Teams"
                stacked
                rows={page.data}
                rowKey={(t) => t.id}
                rowProps={(t) => ({ 'data-testid': 'team', 'data-open': String(t.open_now) })}
                columns={[
                  {
                    header: 'Team',
                    cell: (t) => (
                      <>
                        <strong>{t.name}</strong>
                        {t === page.data[0] && <span className="badge">default</span>}
                      </>
                    ),
                  },
                  { header: 'Members', cell: (t) => listInWords(memberNames(t.members, people, me?.id)) },
                  { header: 'Shared by', cell: (t) => ROUTING_WORDS[t.routing].name },
                  { header: 'Hours', cell: (t) => <span className={t.open_now ? 'team-open' : 'muted'}>{openingText(t)}</span> },
                  {
                    header: 'Actions',
                    hiddenHeader: true,
                    cell: (t) => (
                      <span className="actions">
                        <button
                          type="button"
                          className="secondary button-small"
                          aria-label={`Edit ${t.name}`}
                          onClick={() => {
                            setDone(undefined);
                            setEditing({ kind: 'edit', id: t.id });
                          }}
                        >
                          Edit
                        </button>
                        <button type="button" className="danger button-small" aria-label={`Delete ${t.name}`} disabled={action.pending} onClick={() => void remove(t)}>
                          Delete
                        </button>
                      </span>
                    ),
                  },
                ]}
              />
            </div>
            <p className="small muted">The default team, the oldest, gets every conversation no routing rule below sends elsewhere.</p>
          </>
        )}
      </AsyncView>
      <RoutingRules teams={teams.data?.data} />
    </section>
  );
}
