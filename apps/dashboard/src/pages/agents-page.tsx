import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Agent } from '../api';
import { ErrorNotice, Loading } from '../components/feedback';
import { formatTime } from '../components/format';
import { PageHeader } from '../components/page-header';
import { errorText } from '../components/problem-text';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';
import { AgentAnalytics } from './agent-analytics';
import { AgentEditor } from './agent-editor';
import { AgentGaps } from './agent-gaps';
import { AgentKnowledge } from './agent-knowledge';
import { AgentTester } from './agent-tester';
import { AgentTests, agentTestsKey } from './agent-tests';
import { AgentVersions } from './agent-versions';

export const AGENTS_KEY = ['agents'] as const;

/** AI agents: the list, and for the chosen one its editor, knowledge, the questions it could not answer, a test box, its tests, how it did and its versions. */
export function AgentsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const agents = useQuery({ queryKey: AGENTS_KEY, queryFn: () => api.listAgents() });
  const [selected, setSelected] = useState<string | 'new'>();
  const [savedNote, setSavedNote] = useState<string>();
  const current = agents.data?.data.find((a) => a.name === selected);
  const reload = () => void queryClient.invalidateQueries({ queryKey: AGENTS_KEY });

  const saved = (agent: Agent) => {
    // shown at once, before the list has reloaded: the editor of the new version opens with it
    queryClient.setQueryData(AGENTS_KEY, (page: typeof agents.data) => page && { ...page, data: [agent, ...page.data.filter((a) => a.name !== agent.name)] });
    reload();
    setSelected(agent.name);
    // an agent with tests runs them on every change: say so, where the owner is looking
    const tests = queryClient.getQueryData<unknown[]>(agentTestsKey(agent.name))?.length ?? 0;
    const running = tests > 0 ? ` Its ${tests === 1 ? 'test is' : `${tests} tests are`} running: see Tests below.` : '';
    setSavedNote(agent.version === 1 ? `Created ${agent.name}. Try it in the Playground, or add what it should know below.` : `Saved ${agent.name} (version ${agent.version}).${running}`);
  };
  const removal = useAction();
  const remove = async (agent: Agent) => {
    if (!window.confirm(`Delete the AI agent ${agent.name}? Channels it answers fall back to your default AI agent.`)) return;
    const deleted = await removal.run(async () => {
      await api.deleteAgent(agent.name);
      return true;
    });
    if (!deleted) return;
    setSelected(undefined);
    setSavedNote(`Deleted ${agent.name}.`);
    reload();
  };

  return (
    <section>
      <PageHeader title="AI agents">An AI agent answers your customers: what it knows, how it greets, and which skills it uses.</PageHeader>
      {agents.error && <ErrorNotice error={errorText(agents.error)} />}
      {agents.isPending ? (
        <Loading what="AI agents" />
      ) : agents.data?.data.length ? (
        <ul className="list" aria-label="AI agents">
          {agents.data.data.map((a) => (
            <li key={a.id}>
              <button type="button" className="list-item" aria-pressed={selected === a.name} onClick={() => setSelected(a.name)}>
                <strong>{a.name}</strong> <span className="muted">version {a.version} · updated {formatTime(a.updated_at)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty">No AI agent yet: create your first one.</p>
      )}
      <button type="button" onClick={() => { setSelected('new'); setSavedNote(undefined); }}>
        New AI agent
      </button>
      {savedNote && (
        <p className="notice notice-success" role="status">
          {savedNote}
        </p>
      )}
      {selected === 'new' && <AgentEditor key="new" onSaved={saved} />}
      {current && (
        <>
          <AgentEditor key={`${current.name}@${current.version}`} agent={current} onSaved={saved} onRefused={() => setSavedNote(undefined)} />
          <AgentKnowledge key={`knowledge:${current.name}`} agent={current.name} />
          <AgentGaps key={`gaps:${current.name}`} agent={current.name} onAnswered={reload} />
          <AgentTester agent={current.name} />
          <AgentTests key={`tests:${current.name}@${current.version}`} agent={current} />
          <AgentAnalytics key={`analytics:${current.name}`} agent={current.name} />
          <AgentVersions agent={current} onRestored={saved} />
          <section className="card" aria-labelledby="delete-agent-title">
            <h2 id="delete-agent-title">Delete {current.name}</h2>
            <p className="muted">Its versions and documents go with it. Channels it answers fall back to your default AI agent.</p>
            <ErrorNotice error={removal.error} />
            <button type="button" className="danger" onClick={() => void remove(current)} disabled={removal.pending}>
              Delete AI agent
            </button>
          </section>
        </>
      )}
    </section>
  );
}
