import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { AnswerGapBody, type KnowledgeGapRecord, type Page } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';
import { Requires } from '../identity/auth/permissions';
import { pageOf } from '../http/list-query.dto';
import { AgentNamePipe, PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { GapListQueryDto } from './gap-list-query.dto';

const GapId = new PrefixedIdPipe('gap', 'Knowledge gap');
/** Wordings of a gap that become FAQs when it is answered: the most asked, so each of them is answered from then on. */
const FAQS_PER_ANSWER = 5;

/**
 * Knowledge gaps (CONTRACT.md §19): responder-service keeps them (it sees what the agent could not answer), agent-service
 * the FAQs an answer becomes.
 */
@Controller('api/v1/agents/:agent_name/gaps')
export class GapsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: "List an agent's knowledge gaps",
    description:
      'What the agent could not answer (it said it did not know, gave the conversation to a person, or a reply was marked wrong), near-duplicate questions grouped: `question` is the most asked wording, `examples` the others, `count` the questions in all. The most recently asked first; `state` `open` by default.',
    access: 'tenant',
    query: GapListQueryDto,
    success: { status: 200, description: 'A page of knowledge gaps.', schema: 'KnowledgeGapPage' },
    errors: [400, 503],
  })
  @Get()
  list(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Query() query: GapListQueryDto, @RequestId() requestId: string): Promise<Page<KnowledgeGapRecord>> {
    return this.rpc.request('gaps.list', { tenant_id: tenantId, agent, state: query.state ?? 'open', ...pageOf(query) }, { requestId });
  }

  @ApiRoute({
    summary: 'Answer a knowledge gap',
    description: `The answer becomes FAQs of the agent (a new version): one per wording of the gap, the ${FAQS_PER_ANSWER} most asked, so each is answered from then on (an FAQ with the same question takes the new answer; \`faq_responder\` is added to the skills when missing). The gap closes. Again with the same answer: the same closed gap; another answer to a gap no longer open: 409.`,
    access: 'tenant',
    body: AnswerGapBody,
    success: { status: 200, description: 'The gap, closed.', schema: 'KnowledgeGap' },
    errors: [400, 404, 409, 503],
  })
  @Post(':id/answer')
  @HttpCode(200)
  @Requires('agents.manage')
  async answer(
    @Tenant() tenantId: string,
    @Param('agent_name', AgentNamePipe) agent: string,
    @Param('id', GapId) id: string,
    @Body() body: AnswerGapBody,
    @RequestId() requestId: string,
  ): Promise<KnowledgeGapRecord> {
    const gap = await this.rpc.request('gaps.get', { tenant_id: tenantId, agent, id }, { requestId });
    if (gap.state === 'open') {
      const faqs = gap.examples.slice(0, FAQS_PER_ANSWER).map((question) => ({ question, answer: body.answer }));
      await this.rpc.request('agents.add-faqs', { tenant_id: tenantId, name: agent, faqs }, { requestId });
    }
    // a gap settled already answers 409 here, unless it was closed with this very answer (a retry)
    return this.rpc.request('gaps.close', { tenant_id: tenantId, agent, id, answer: body.answer }, { requestId });
  }

  @ApiRoute({
    summary: 'Dismiss a knowledge gap',
    description: 'Sets it aside without an answer (it stays listed under `state=dismissed`); questions like it open a new gap.',
    access: 'tenant',
    success: { status: 200, description: 'The gap, dismissed.', schema: 'KnowledgeGap' },
    errors: [404, 409, 503],
  })
  @Post(':id/dismiss')
  @HttpCode(200)
  @Requires('agents.manage')
  dismiss(@Tenant() tenantId: string, @Param('agent_name', AgentNamePipe) agent: string, @Param('id', GapId) id: string, @RequestId() requestId: string): Promise<KnowledgeGapRecord> {
    return this.rpc.request('gaps.dismiss', { tenant_id: tenantId, agent, id }, { requestId });
  }
}
