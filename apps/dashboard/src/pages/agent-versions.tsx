import type { Agent } from '../api';
import { AsyncView, ErrorNotice } from '../components/feedback';
import { formatTime } from '../components/format';
import { useLiveQuery } from '../components/live-query';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';

/** The agent's kept versions; restoring one PUTs its body again (which makes a new version). */
export function AgentVersions({ agent, onRestored }: { agent: Agent; onRestored(agent: Agent): void }) {
  const api = useApi();
  const versions = useLiveQuery(['agents', agent.name, 'versions', agent.version], () => api.agentVersions(agent.name));
  const action = useAction();
  const restore = async (version: number) => {
    const restored = await action.run(async () => {
      const { body } = await api.agentVersion(agent.name, version);
      return api.putAgent({ ...body, booking: body.booking ?? undefined });
    });
    if (restored) onRestored(restored);
  };
  return (
    <section className="card" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      <ErrorNotice error={action.error} />
      <AsyncView state={versions} what="versions" isEmpty={(p) => p.data.length === 0} empty="No versions kept.">
        {(page) => (
          <ul className="list">
            {page.data.map((v) => (
              <li key={v.version} className="row">
                <span>
                  Version {v.version} <span className="muted">{formatTime(v.created_at)}</span>
                  {v.version === agent.version && <span className="badge">current</span>}
                </span>
                {v.version !== agent.version && (
                  <button type="button" className="secondary button-small" disabled={action.pending} onClick={() => void restore(v.version)}>
                    Restore version {v.version}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </AsyncView>
    </section>
  );
}
