import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, notFoundProblem, type ConversationRecord, type ConversationSummary, type Page } from '@parley/contracts';
import { ListCursors, ProblemException } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { pageAfter } from '../common/pages';
import type { SkillState } from '../replies/reply-engine';
import { ConversationEntity, ConversationMessageEntity, type TurnRole } from './conversation.entity';

/** A conversation starts anew after this much silence (CONTRACT.md §10). */
export const CONVERSATION_SILENCE_MS = 24 * 60 * 60 * 1000;
/** Turns kept per conversation: the memory a reply is computed from. Older ones are pruned. */
export const CONVERSATION_MEMORY = 50;

export interface ConversationParty {
  channelId: string;
  businessNumber: string;
  customer: string;
}

export interface Turn {
  messageId: string;
  role: TurnRole;
  text: string;
  at: Date;
}

/**
 * Conversations and their bounded memory. Every method runs inside the caller's transaction, which must hold
 * `lock()` for the conversation's parties first, so one conversation is never advanced by two handlers at once.
 */
@Injectable()
export class ConversationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cursors: ListCursors,
  ) {}

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<ConversationSummary>> {
    const qb = this.db.getRepository(ConversationEntity).createQueryBuilder('c').where('c.tenant_id = :tenantId', { tenantId });
    const page = await pageAfter(qb, 'c', limit, cursor, this.cursors.of(tenantId, 'conversations'));
    return { data: page.rows.map(toSummary), next_cursor: page.nextCursor };
  }

  /** The conversation with its remembered messages; another tenant's is not found. */
  async get(tenantId: string, id: string): Promise<ConversationRecord> {
    const conversation = await this.find(this.db.manager, tenantId, id);
    const turns = await this.history(this.db.manager, tenantId, id);
    return {
      ...toSummary(conversation),
      messages: turns.map((t) => ({ message_id: t.messageId, role: t.role, text: t.text, at: t.at.toISOString() })),
    };
  }

  /**
   * The tenant takes the conversation back from the human: the agent answers again. Taken under the conversation's
   * lock, so a reply being computed right now sees either the old state or the new one, never half of it.
   */
  async release(tenantId: string, id: string): Promise<ConversationSummary> {
    return this.db.transaction(async (tx) => {
      const found = await this.find(tx, tenantId, id);
      await this.lock(tx, tenantId, found.businessNumber, found.customer);
      const conversation = await this.find(tx, tenantId, id);
      if (conversation.state !== 'active') {
        // A fresh start for the skills' give-up counters; what they collected (lead facts, a booking) stays.
        const skillState: SkillState = { ...conversation.skillState, humanOffered: false, unknownStreak: 0 };
        if (skillState.booking) skillState.booking = { ...skillState.booking, misses: 0 };
        await tx.getRepository(ConversationEntity).update({ id, tenantId }, { state: 'active', skillState });
        conversation.state = 'active';
      }
      return toSummary(conversation);
    });
  }

  private async find(manager: EntityManager, tenantId: string, id: string): Promise<ConversationEntity> {
    const conversation = await manager.getRepository(ConversationEntity).findOne({ where: { id, tenantId } });
    if (!conversation) throw new ProblemException(notFoundProblem(`Conversation "${id}"`));
    return conversation;
  }

  /** Serialises work on one tenant number + customer until the transaction ends. */
  async lock(tx: EntityManager, tenantId: string, businessNumber: string, customer: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify(['cnv', tenantId, businessNumber, customer])]);
  }

  /** A new conversation of the parties, from `at` (written by the reply's commit, BurstStore.write). */
  started(tenantId: string, party: ConversationParty, at: Date): ConversationEntity {
    return {
      id: newId('cnv'),
      tenantId,
      channelId: party.channelId,
      businessNumber: party.businessNumber,
      customer: party.customer,
      state: 'active',
      replyCount: 0,
      skillState: {},
      startedAt: at,
      lastMessageAt: at,
    };
  }

  /** The remembered turns, oldest first. */
  async history(tx: EntityManager, tenantId: string, conversationId: string): Promise<Turn[]> {
    const rows = await tx.getRepository(ConversationMessageEntity).find({
      where: { tenantId, conversationId },
      order: { id: 'DESC' },
      take: CONVERSATION_MEMORY,
    });
    return rows.reverse().map((r) => ({ messageId: r.messageId, role: r.role, text: r.text, at: r.at }));
  }
}

function toSummary(c: ConversationEntity): ConversationSummary {
  return {
    id: c.id,
    customer: c.customer,
    channel_id: c.channelId,
    state: c.state,
    started_at: c.startedAt.toISOString(),
    last_message_at: c.lastMessageAt.toISOString(),
  };
}
