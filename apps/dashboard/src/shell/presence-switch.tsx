import { useQueryClient } from '@tanstack/react-query';
import type { Presence, PresenceStatus } from '../api';
import { useLiveQuery } from '../components/live-query';
import { useAction } from '../components/use-action';
import { useApi } from '../session/session';

export const PRESENCE_KEY = ['presence'] as const;

/**
 * The signed-in member's "Available / Away" switch (CONTRACT.md §18). Being here is presence enough: this dashboard
 * holds the events stream open, so an available member gets conversations by their team's routing; away, they keep
 * their conversations and get no new ones. A member the API has not seen yet is `online`, its default.
 */
export function PresenceSwitch({ memberId }: { memberId: string }) {
  const api = useApi();
  const queries = useQueryClient();
  const presence = useLiveQuery(PRESENCE_KEY, () => api.teamPresence());
  const action = useAction();
  const status: PresenceStatus = presence.data?.data.find((p) => p.member_id === memberId)?.status ?? 'online';
  const available = status === 'online';

  const toggle = async () => {
    const saved = await action.run(() => api.setMyPresence(available ? 'away' : 'online'));
    if (!saved) return;
    queries.setQueryData<{ data: Presence[] }>(PRESENCE_KEY, (old) => ({ data: [...(old?.data ?? []).filter((p) => p.member_id !== saved.member_id), saved] }));
  };

  return (
    <span className="presence" data-status={status}>
      <label className="presence-switch" title={available ? 'You get new conversations' : 'You keep your conversations but get no new ones'}>
        <input type="checkbox" role="switch" checked={available} disabled={action.pending || presence.loading} onChange={() => void toggle()} />
        <span className="presence-label">Available</span>
      </label>
      {!available && <span className="presence-away small">Away</span>}
      {action.error && (
        <span className="presence-error small" role="alert">
          Could not change: {action.error}
        </span>
      )}
    </span>
  );
}
