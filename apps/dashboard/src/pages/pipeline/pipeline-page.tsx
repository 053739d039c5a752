import { useState } from 'react';
import type { Deal, Pipeline } from '../../api';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { useAction, useAsync } from '../../components/use-async';
import { PageHeader } from '../../components/page-header';
import { Link } from '../../router';
import { useApi } from '../../session/session';

/**
 * The sales pipeline: a column per stage of the chosen pipeline, its deals as cards. A card moves by its stage select
 * (keyboard and screen readers) or by dragging it onto another column.
 */
export function PipelinePage() {
  const api = useApi();
  const pipelines = useAsync(() => api.listPipelines(), 'pipelines');
  const [chosen, setChosen] = useState<string>();
  return (
    <section>
      <PageHeader title="Pipeline">Deals by stage. A lead your agent captures opens one in the first stage.</PageHeader>
      <AsyncView state={pipelines} what="pipelines" isEmpty={(p) => p.data.length === 0} empty="No pipeline yet.">
        {(list) => {
          const pipeline = list.data.find((p) => p.id === chosen) ?? list.data[0];
          return (
            <>
              {list.data.length > 1 && (
                <label>
                  Pipeline
                  <select value={pipeline.id} onChange={(e) => setChosen(e.target.value)}>
                    {list.data.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              <Board pipeline={pipeline} />
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

function Board({ pipeline }: { pipeline: Pipeline }) {
  const api = useApi();
  const deals = useAsync(() => api.listDeals({ pipeline_id: pipeline.id }), `deals:${pipeline.id}`, { events: ['deal.created', 'deal.stage_changed'] });
  const move = useAction();
  const [dragged, setDragged] = useState<string>();
  const moveDeal = async (deal: Deal, stage: string) => {
    if (deal.stage === stage) return;
    if (await move.run(() => api.moveDeal(deal.id, stage))) deals.reload();
  };
  return (
    <AsyncView state={deals} what="deals">
      {(page) => (
        <>
          <ErrorNotice error={move.error} />
          <div className="board">
            {pipeline.stages.map((stage) => {
              const inStage = page.data.filter((d) => d.stage === stage);
              return (
                <section
                  key={stage}
                  className="board-column"
                  aria-labelledby={`stage-${stage}`}
                  onDragOver={(e) => e.preventDefault()}
                  onDrop={() => {
                    const deal = page.data.find((d) => d.id === dragged);
                    if (deal) void moveDeal(deal, stage);
                    setDragged(undefined);
                  }}
                >
                  <h2 id={`stage-${stage}`}>
                    {stage} <span className="small muted">({inStage.length})</span>
                  </h2>
                  <ul className="list">
                    {inStage.map((deal) => (
                      <li key={deal.id} draggable onDragStart={() => setDragged(deal.id)} data-testid="deal-card">
                        <strong>{deal.title}</strong>
                        {deal.value && (
                          <div className="small">
                            {deal.value.amount} {deal.value.currency}
                          </div>
                        )}
                        <div className="small">
                          <Link to={`/contacts/${deal.contact_id}`}>Contact</Link>
                        </div>
                        <label className="small">
                          Stage of {deal.title}
                          <select value={deal.stage} onChange={(e) => void moveDeal(deal, e.target.value)} disabled={move.pending}>
                            {pipeline.stages.map((s) => (
                              <option key={s} value={s}>
                                {s}
                              </option>
                            ))}
                          </select>
                        </label>
                      </li>
                    ))}
                  </ul>
                </section>
              );
            })}
          </div>
        </>
      )}
    </AsyncView>
  );
}
