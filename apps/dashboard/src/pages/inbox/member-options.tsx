import type { Member } from '../../api';
import { useMember } from '../../session/session';

/** The options of an assignee or owner choice: nobody, or one of the team (the signed-in member marked as you). */
export function MemberOptions({ members }: { members: readonly Member[] }) {
  const me = useMember();
  return (
    <>
      <option value="">nobody</option>
      {members.map((m) => (
        <option key={m.id} value={m.id}>
          {m.id === me?.id ? `${m.name} (you)` : m.name}
        </option>
      ))}
    </>
  );
}
