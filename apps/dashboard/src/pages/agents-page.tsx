import { useState } from 'react';
import type { Agent } from '../api';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { formatTime } from '../components/format';
import { PageHeader } from '../components/page-header';
import { useAction, useAsync } from '../components/use-async';
import { useApi } from '../session/session';
import { AgentEditor } from './agent-editor';
import { AgentKnowledge } from './agent-knowledge';
import { AgentTester } from './agent-tester';
import { AgentVersions } from './agent-versions';

/** Agents: the list, and for the chosen one its editor, versions and a test box. */
export function AgentsPage() {
  const api = useApi();
  const agents = useAsync(() => api.listAgents(), 'agents');
  const [selected, setSelected] = useState<string | 'new'>();
  const current = agents.data?.data.find((a) => a.name === selected);

  const saved = (agent: Agent) => {
    agents.reload();
    setSelected(agent.name);
  };
  const removal = useAction();
  const remove = async (agent: Agent) => {
    if (!window.confirm(`Delete the agent ${agent.name}? Numbers it answers fall back to your default agent.`)) return;
    const deleted = await removal.run(async () => {
      await api.deleteAgent(agent.name);
      return true;
    });
    if (!deleted) return;
    setSelected(undefined);
    agents.reload();
  };

  return (
    <section>
      <PageHeader title="Agents">An agent answers your customers: what it knows, how it greets, and which skills it uses.</PageHeader>
      <AsyncView state={agents} what="agents" isEmpty={(p) => p.data.length === 0} empty="No agent yet: create your first one.">
        {(page) => (
          <ul className="list" aria-label="Agents">
            {page.data.map((a) => (
              <li key={a.id}>
                <button type="button" className="list-item" aria-pressed={selected === a.name} onClick={() => setSelected(a.name)}>
                  <strong>{a.name}</strong> <span className="muted">version {a.version} · updated {formatTime(a.updated_at)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </AsyncView>
      <button type="button" onClick={() => setSelected('new')}>
        New agent
      </button>
      {selected === 'new' && <AgentEditor key="new" onSaved={saved} />}
      {current && (
        <>
          <AgentEditor key={`${current.name}@${current.version}`} agent={current} onSaved={saved} />
          <AgentKnowledge key={`knowledge:${current.name}`} agent={current.name} />
          <AgentTester agent={current.name} />
          <AgentVersions agent={current} onRestored={saved} />
          <section className="card" aria-labelledby="delete-agent-title">
            <h2 id="delete-agent-title">Delete {current.name}</h2>
            <p className="muted">Its versions and documents go with it. Numbers it answers fall back to your default agent.</p>
            <ErrorNotice error={removal.error} />
            <button type="button" className="danger" onClick={() => void remove(current)} disabled={removal.pending}>
              Delete agent
            </button>
          </section>
        </>
      )}
    </section>
  );
}
