import { ListCursors, ProblemException } from '@parley/service-kit';
import { QueryFailedError, type EntityManager } from 'typeorm';
import type { GatewayConfig } from '../../config/gateway.config';
import type { SignedInMember } from '../../http/request-context';
import type { MemberLinks } from './member-links';
import type { MemberTokensStore } from './member-tokens.store';
import type { MemberEntity } from './member.entity';
import { TeamService } from './team.service';
import type { NewMember, TeamStore } from './team.store';

/** TeamStore's contract in memory (its SQL runs against PostgreSQL in team-sign-in.integration-spec). */
class InMemoryTeam implements Pick<TeamStore, 'transaction' | 'insert' | 'list' | 'find' | 'lockTeam' | 'otherActiveOwners' | 'save' | 'delete' | 'invitationContext'> {
  readonly rows = new Map<string, MemberEntity>();
  private next = 0;

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return work({} as EntityManager);
  }

  async insert(tenantId: string, member: NewMember): Promise<MemberEntity> {
    if ([...this.rows.values()].some((m) => m.tenantId === tenantId && m.email === member.email)) {
      throw new QueryFailedError('INSERT', [], Object.assign(new Error('duplicate key'), { code: '23505' }));
    }
    const row = { id: `usr_${++this.next}`, tenantId, invitedBy: null, ...member, createdAt: new Date(), updatedAt: new Date() } as MemberEntity;
    this.rows.set(row.id, row);
    return { ...row };
  }

  async list(tenantId: string, limit: number): Promise<MemberEntity[]> {
    return [...this.rows.values()].filter((m) => m.tenantId === tenantId).slice(0, limit);
  }

  async find(tenantId: string, id: string): Promise<MemberEntity | null> {
    const row = this.rows.get(id);
    return row && row.tenantId === tenantId ? { ...row } : null;
  }

  async lockTeam(): Promise<void> {}

  async otherActiveOwners(tenantId: string, exceptId: string): Promise<number> {
    return [...this.rows.values()].filter((m) => m.tenantId === tenantId && m.role === 'owner' && m.status === 'active' && m.id !== exceptId).length;
  }

  async save(tenantId: string, member: MemberEntity): Promise<MemberEntity> {
    if (member.tenantId !== tenantId) throw new Error('another tenant');
    this.rows.set(member.id, { ...member });
    return member;
  }

  async delete(tenantId: string, id: string): Promise<void> {
    if (this.rows.get(id)?.tenantId === tenantId) this.rows.delete(id);
  }

  async invitationContext(): Promise<{ business: string; inviter: null }> {
    return { business: 'Acme', inviter: null };
  }
}

function setup() {
  const store = new InMemoryTeam();
  const tokens = { issue: async () => ({ token: 'tok', expiresAt: new Date(Date.now() + 3600_000) }) } as unknown as MemberTokensStore;
  const links = { invitation: async () => undefined, wake: () => undefined } as unknown as MemberLinks;
  const config = { PASSWORD_SCRYPT_LOG_N: 10, INVITE_TTL_SECONDS: 3600 } as GatewayConfig;
  const team = new TeamService(store as unknown as TeamStore, tokens, links, new ListCursors('test-secret'), config);
  return { store, team };
}

const owner = (id: string): SignedInMember => ({ id, role: 'owner' });
const admin = (id: string): SignedInMember => ({ id, role: 'admin' });
const statusOf = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  return err instanceof ProblemException ? err.problem.status : err;
};

describe('TeamService', () => {
  it('invites by email once per team: the same address in any case again is a 409 naming `email`', async () => {
    const { team } = setup();
    const invited = await team.invite('ten_a', null, { email: 'Ana@Example.com', name: 'Ana', role: 'agent' }, 'https://app.example');
    expect(invited).toMatchObject({ email: 'ana@example.com', status: 'invited', invite_url: 'https://app.example/dashboard/accept-invite?token=tok' });
    const err = await team.invite('ten_a', null, { email: 'ana@example.COM', name: 'Ana', role: 'agent' }, 'https://app.example').catch((e: unknown) => e);
    expect((err as ProblemException).problem).toMatchObject({ status: 409, errors: [{ field: 'email' }] });
  });

  it('only an owner makes, changes or removes an owner', async () => {
    const { team, store } = setup();
    const first = await store.insert('ten_a', { email: 'o@x.io', name: 'O', role: 'owner', status: 'active', passwordHash: 'h' });
    const boss = await store.insert('ten_a', { email: 'b@x.io', name: 'B', role: 'admin', status: 'active', passwordHash: 'h' });
    expect(await statusOf(team.invite('ten_a', admin(boss.id), { email: 'n@x.io', name: 'N', role: 'owner' }, ''))).toBe(403);
    expect(await statusOf(team.changeRole('ten_a', admin(boss.id), first.id, 'admin'))).toBe(403);
    expect(await statusOf(team.remove('ten_a', admin(boss.id), first.id))).toBe(403);
    expect((await team.changeRole('ten_a', owner(first.id), boss.id, 'owner')).role).toBe('owner');
  });

  it('the last active owner can be neither demoted nor removed; with a second owner both can', async () => {
    const { team, store } = setup();
    const only = await store.insert('ten_a', { email: 'o@x.io', name: 'O', role: 'owner', status: 'active', passwordHash: 'h' });
    expect(await statusOf(team.changeRole('ten_a', owner(only.id), only.id, 'admin'))).toBe(409);
    expect(await statusOf(team.remove('ten_a', null, only.id))).toBe(409);
    await store.insert('ten_a', { email: 'p@x.io', name: 'P', role: 'owner', status: 'active', passwordHash: 'h' });
    await team.remove('ten_a', null, only.id);
    expect(store.rows.has(only.id)).toBe(false);
  });

  it("another tenant's member is not found", async () => {
    const { team, store } = setup();
    const member = await store.insert('ten_a', { email: 'a@x.io', name: 'A', role: 'agent', status: 'active', passwordHash: 'h' });
    expect(await statusOf(team.get('ten_b', member.id))).toBe(404);
    expect(await statusOf(team.remove('ten_b', null, member.id))).toBe(404);
    expect(store.rows.has(member.id)).toBe(true);
  });
});
