import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Deal, Member, Pipeline } from '../../api';
import { AsyncView, ErrorNotice } from '../../components/feedback';
import { useLiveQuery } from '../../components/live-query';
import { useAction } from '../../components/use-action';
import { PageHeader } from '../../components/page-header';
import { Link } from '../../router';
import { useApi, useMember } from '../../session/session';
import { DEALS_KEY, DEAL_EVENTS, PIPELINES_KEY } from '../contacts/records-keys';
import { useTeamMembers } from '../inbox/team-members';
import { DealForm } from './deal-form';
import { formatCalendarDate, formatMoney } from './deal-money';
import '../contacts/records.css';

/**
 * The sales pipeline: a column per stage of the chosen pipeline, its deals as cards. A card moves by its stage select
 * (keyboard and screen readers) or by dragging it onto another column; "New deal" and each card's "Edit" open the
 * deal's form above the board.
 */
export function PipelinePage() {
  const api = useApi();
  const pipelines = useLiveQuery(PIPELINES_KEY, () => api.listPipelines());
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
              <Board key={pipeline.id} pipeline={pipeline} />
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

/** Which form is open above the board: none, a new deal, or one deal's. */
type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'deal'; deal: Deal };

function Board({ pipeline }: { pipeline: Pipeline }) {
  const api = useApi();
  const queries = useQueryClient();
  const members = useTeamMembers();
  // Live: a captured lead's deal, another member's move, appear without a reload (and on coming back).
  const deals = useLiveQuery([...DEALS_KEY, 'pipeline', pipeline.id], () => api.listDeals({ pipeline_id: pipeline.id }), { events: DEAL_EVENTS });
  const move = useAction();
  const [dragged, setDragged] = useState<string>();
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const formArea = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (editing.kind !== 'none') formArea.current?.querySelector('input')?.focus();
  }, [editing]);
  const moveDeal = async (deal: Deal, stage: string) => {
    if (deal.stage === stage) return;
    if (await move.run(() => api.moveDeal(deal.id, stage))) void queries.invalidateQueries({ queryKey: DEALS_KEY });
  };
  return (
    <>
      <div className="row wrap">
        <button type="button" onClick={() => setEditing({ kind: 'new' })} aria-expanded={editing.kind === 'new'}>
          New deal
        </button>
      </div>
      <div ref={formArea}>
        {editing.kind !== 'none' && (
          <DealForm
            key={editing.kind === 'deal' ? editing.deal.id : 'new'}
            pipeline={pipeline}
            deal={editing.kind === 'deal' ? editing.deal : undefined}
            onDone={() => setEditing({ kind: 'none' })}
          />
        )}
      </div>
      <AsyncView state={deals} what="deals">
        {(page) => (
          <>
            <ErrorNotice error={move.error} />
            <div className="board" role="region" aria-label="Deals by stage" tabIndex={0}>
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
                        <DealCard
                          key={deal.id}
                          deal={deal}
                          pipeline={pipeline}
                          members={members}
                          moving={move.pending}
                          onDragStart={() => setDragged(deal.id)}
                          onMove={(s) => void moveDeal(deal, s)}
                          onEdit={() => setEditing({ kind: 'deal', deal })}
                        />
                      ))}
                    </ul>
                  </section>
                );
              })}
            </div>
          </>
        )}
      </AsyncView>
    </>
  );
}

function DealCard({
  deal,
  pipeline,
  members,
  moving,
  onDragStart,
  onMove,
  onEdit,
}: {
  deal: Deal;
  pipeline: Pipeline;
  members: readonly Member[];
  moving: boolean;
  onDragStart(): void;
  onMove(stage: string): void;
  onEdit(): void;
}) {
  const me = useMember();
  const owner = deal.owner ? (deal.owner === me?.id ? 'you' : (members.find((m) => m.id === deal.owner)?.name ?? 'a team member')) : undefined;
  const selectId = `deal-stage-${deal.id}`;
  return (
    <li draggable onDragStart={onDragStart} data-testid="deal-card" className="deal-card">
      <strong>{deal.title}</strong>
      {deal.value && (
        <div className="deal-value" data-testid="deal-value">
          {formatMoney(deal.value)}
        </div>
      )}
      {owner && <div className="small">Owner: {owner}</div>}
      {deal.expected_close_date && <div className="small">Expected to close {formatCalendarDate(deal.expected_close_date)}</div>}
      <div className="small">
        <Link to={`/contacts/${deal.contact_id}`}>
          Contact<span className="visually-hidden"> of {deal.title}</span>
        </Link>
      </div>
      {/* The select's name for screen readers; sighted people see the column it sits in. */}
      <label htmlFor={selectId} className="visually-hidden">
        Stage of {deal.title}
      </label>
      <select id={selectId} value={deal.stage} onChange={(e) => onMove(e.target.value)} disabled={moving}>
        {pipeline.stages.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <button type="button" className="secondary small-button" onClick={onEdit} aria-label={`Edit ${deal.title}`}>
        Edit
      </button>
    </li>
  );
}
