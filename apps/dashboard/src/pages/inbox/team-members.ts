import { ApiError, type Member } from '../../api';
import { useLiveQuery } from '../../components/live-query';
import { useApi, useMember } from '../../session/session';

/**
 * The team, to name assignees and deal owners and pick one. A role that may not read the team (403) still has
 * itself to pick.
 */
export function useTeamMembers(): readonly Member[] {
  const api = useApi();
  const me = useMember();
  const team = useLiveQuery(['team', 'members', me?.id ?? null], () =>
    api.listTeam().then(
      (page) => page.data,
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 403) return me ? [me] : [];
        throw err;
      },
    ),
  );
  return team.data ?? [];
}
