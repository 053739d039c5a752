import { Injectable } from '@nestjs/common';
import { notFoundProblem, type AgentAnalytics, type AgentKnowledgeSource } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { AgentsService } from '../agents/agents.service';
import { AgentDocumentsService } from '../documents/agent-documents.service';
import { dayRange } from './reply-outcome';
import { ReplyOutcomesStore } from './reply-outcomes.store';

const MOST_USED = 10;

/** An agent's analytics (CONTRACT.md §19): its replies by day and language, and the knowledge they used and did not. */
@Injectable()
export class AgentAnalyticsService {
  constructor(
    private readonly outcomes: ReplyOutcomesStore,
    private readonly agents: AgentsService,
    private readonly documents: AgentDocumentsService,
  ) {}

  async of(tenantId: string, agentName: string, query: { from: string | null; to: string | null; tz: string | null }, now = new Date()): Promise<AgentAnalytics> {
    const range = dayRange(query, now);
    const agent = await this.agents.liveAgent(tenantId, agentName);
    if (!agent) throw new ProblemException(notFoundProblem(`Agent "${agentName}"`));
    const [data, uses, passages] = await Promise.all([
      this.outcomes.days(tenantId, agentName, range),
      this.outcomes.sourceUses(tenantId, agentName, range),
      this.documents.forAgent(tenantId, agent.id),
    ]);
    const used = new Set(uses.map((u) => u.id));
    const knowledge: AgentKnowledgeSource[] = [
      ...agent.faqs.map((faq, i): AgentKnowledgeSource => ({ type: 'faq', id: `faq-${i + 1}`, title: faq.question })),
      ...[...new Map(passages.map((p) => [p.documentId, p.title])).entries()].map(([id, title]): AgentKnowledgeSource => ({ type: 'document', id, title })),
    ];
    return { agent: agentName, ...range, data, sources: { most_used: uses.slice(0, MOST_USED), never_used: knowledge.filter((k) => !used.has(k.id)) } };
  }
}
