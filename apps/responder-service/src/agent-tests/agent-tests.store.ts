import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AgentRecord, AgentTestCaseResult, AgentTestExpectation, AgentTestRecord, AgentTestRunRecord, AgentTestRunStatus } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';

interface TestRow {
  id: string;
  agent_name: string;
  message: string;
  expect: AgentTestExpectation;
  created_at: Date;
}

interface RunRow {
  id: string;
  tenant_id: string;
  agent_name: string;
  version: number;
  cause: string;
  status: AgentTestRunStatus;
  passed: number;
  failed: number;
  cases: AgentTestCaseResult[];
  fixed: string[];
  broken: string[];
  previous_version: number | null;
  created_at: Date;
  completed_at: Date | null;
}

/** A run a worker holds: the agent at the run's version and before it, to run the set against both. */
export interface ClaimedRun {
  id: string;
  tenantId: string;
  agentName: string;
  version: number;
  createdAt: Date;
  agent: AgentRecord;
  previousAgent: AgentRecord | null;
}

/** What a finished run found. */
export interface RunOutcome {
  cases: AgentTestCaseResult[];
  fixed: string[];
  broken: string[];
  /** The version of what it was compared with (null: nothing). */
  comparedVersion: number | null;
}

/** Why a run is queued: a new version (`version:<n>`), or a change of the agent's documents (one per document change event). */
export type RunCause = `version:${number}` | `document:${string}`;

const RUN_COLUMNS = `r.id, r.tenant_id, r.agent_name, r.version, r.cause, r.status, r.passed, r.failed, r.cases, r.fixed, r.broken,
  r.compared_version AS previous_version, r.created_at, r.completed_at`;

/** Agents' test sets and their runs in SQL; every statement is scoped by tenant. */
@Injectable()
export class AgentTestsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async create(tenantId: string, id: string, agent: string, message: string, expect: AgentTestExpectation): Promise<AgentTestRecord> {
    const [row]: TestRow[] = await this.db.query(
      `INSERT INTO agent_tests (id, tenant_id, agent_name, message, expect) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, agent_name, message, expect, created_at`,
      [id, tenantId, agent, message, JSON.stringify(expect)],
    );
    return toTest(row);
  }

  async count(tenantId: string, agent: string): Promise<number> {
    const [row]: { n: number }[] = await this.db.query(`SELECT count(*)::int AS n FROM agent_tests WHERE tenant_id = $1 AND agent_name = $2`, [tenantId, agent]);
    return row.n;
  }

  /** One agent's tests, oldest first (ids are time-ordered), after `afterId`; `take` at most. */
  async page(tenantId: string, agent: string, take: number, afterId: string | null): Promise<AgentTestRecord[]> {
    const rows: TestRow[] = await this.db.query(
      `SELECT id, agent_name, message, expect, created_at FROM agent_tests
        WHERE tenant_id = $1 AND agent_name = $2 AND ($3::text IS NULL OR id > $3)
        ORDER BY id LIMIT ${Math.trunc(take)}`,
      [tenantId, agent, afterId],
    );
    return rows.map(toTest);
  }

  /** The whole set a run works through, oldest first. */
  all(tenantId: string, agent: string, limit: number): Promise<AgentTestRecord[]> {
    return this.page(tenantId, agent, limit, null);
  }

  async delete(tenantId: string, agent: string, id: string): Promise<boolean> {
    const [rows]: [unknown[]] = await this.db.query(`DELETE FROM agent_tests WHERE tenant_id = $1 AND agent_name = $2 AND id = $3 RETURNING id`, [tenantId, agent, id]);
    return rows.length > 0;
  }

  /**
   * Queues the run of an agent version's set, once per version (a redelivered change queues nothing more), and only
   * when the agent has tests.
   */
  async queueRun(tenantId: string, id: string, agent: AgentRecord, previous: AgentRecord | null, cause: RunCause): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO agent_test_runs (id, tenant_id, agent_name, agent_id, version, agent, previous_agent, cause)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8
        WHERE EXISTS (SELECT 1 FROM agent_tests WHERE tenant_id = $2 AND agent_name = $3)
       ON CONFLICT (tenant_id, agent_id, cause) DO NOTHING
       RETURNING id`,
      [id, tenantId, agent.name, agent.id, agent.version, JSON.stringify(agent), previous ? JSON.stringify(previous) : null, cause],
    );
    return rows.length > 0;
  }

  /** The oldest run nobody works on (queued, or running under a lease that ran out), now leased to `owner`. */
  async claim(owner: string, leaseSeconds: number): Promise<ClaimedRun | null> {
    const [rows]: [{ id: string; tenant_id: string; agent_name: string; version: number; agent: AgentRecord; previous_agent: AgentRecord | null; created_at: Date }[]] = await this.db.query(
      `UPDATE agent_test_runs SET status = 'running', lease_owner = $1, lease_until = now() + make_interval(secs => $2)
        WHERE id = (SELECT id FROM agent_test_runs
                     WHERE status = 'queued' OR (status = 'running' AND lease_until < now())
                     ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, tenant_id, agent_name, version, agent, previous_agent, created_at`,
      [owner, leaseSeconds],
    );
    const row = rows[0];
    return row
      ? { id: row.id, tenantId: row.tenant_id, agentName: row.agent_name, version: row.version, agent: row.agent, previousAgent: row.previous_agent, createdAt: row.created_at }
      : null;
  }

  /** The cases of the agent's latest run completed before `run` was queued (what a run with no previous agent compares with). */
  async casesBefore(run: ClaimedRun): Promise<{ version: number; cases: AgentTestCaseResult[] } | null> {
    const [row]: { version: number; cases: AgentTestCaseResult[] }[] = await this.db.query(
      `SELECT version, cases FROM agent_test_runs
        WHERE tenant_id = $1 AND agent_id = $2 AND status = 'completed' AND created_at < $3
        ORDER BY created_at DESC LIMIT 1`,
      [run.tenantId, run.agent.id, run.createdAt],
    );
    return row ?? null;
  }

  /** Records a run's outcome if `owner` still holds it; the finished run, or null when its lease was lost. */
  async complete(tx: EntityManager, owner: string, runId: string, outcome: RunOutcome): Promise<AgentTestRunRecord | null> {
    const passed = outcome.cases.filter((c) => c.ok).length;
    const [rows]: [RunRow[]] = await tx.query(
      `UPDATE agent_test_runs r SET status = 'completed', passed = $3, failed = $4, cases = $5, fixed = $6, broken = $7,
              compared_version = $8, completed_at = now(), lease_owner = NULL, lease_until = NULL
        WHERE r.id = $1 AND r.lease_owner = $2 AND r.status = 'running'
        RETURNING ${RUN_COLUMNS}`,
      [runId, owner, passed, outcome.cases.length - passed, JSON.stringify(outcome.cases), JSON.stringify(outcome.fixed), JSON.stringify(outcome.broken), outcome.comparedVersion],
    );
    return rows[0] ? toRun(rows[0]) : null;
  }

  async findRun(tenantId: string, agent: string, version: number): Promise<AgentTestRunRecord | null> {
    const [row]: RunRow[] = await this.db.query(
      `SELECT ${RUN_COLUMNS} FROM agent_test_runs r WHERE r.tenant_id = $1 AND r.agent_name = $2 AND r.version = $3
        ORDER BY r.created_at DESC LIMIT 1`,
      [tenantId, agent, version],
    );
    return row ? toRun(row) : null;
  }

  /** When the oldest run to do falls due: now for a queued one, at its lease's end for a running one; null when none. */
  async nextDueInMs(): Promise<number | null> {
    const [row]: { ms: number | null }[] = await this.db.query(
      `SELECT extract(epoch FROM (min(CASE WHEN status = 'queued' THEN now() ELSE lease_until END) - now())) * 1000 AS ms
         FROM agent_test_runs WHERE status <> 'completed'`,
    );
    return row.ms === null ? null : Number(row.ms);
  }
}

function toTest(row: TestRow): AgentTestRecord {
  return { id: row.id, agent: row.agent_name, message: row.message, expect: row.expect, created_at: row.created_at.toISOString() };
}

function toRun(row: RunRow): AgentTestRunRecord {
  return {
    id: row.id,
    agent: row.agent_name,
    version: row.version,
    trigger: row.cause.startsWith('version:') ? 'version' : 'documents',
    status: row.status,
    passed: row.passed,
    failed: row.failed,
    cases: row.cases,
    fixed: row.fixed,
    broken: row.broken,
    previous_version: row.previous_version,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at ? row.completed_at.toISOString() : null,
  };
}
