import { Injectable } from '@nestjs/common';
import { newId } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
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
  /** Serialises work on one tenant number + customer until the transaction ends. */
  async lock(tx: EntityManager, tenantId: string, businessNumber: string, customer: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify(['cnv', tenantId, businessNumber, customer])]);
  }

  /** The conversation a message at `at` belongs to: the latest one, unless it has been silent for 24 h. */
  async open(tx: EntityManager, tenantId: string, party: ConversationParty, at: Date): Promise<ConversationEntity> {
    const repo = tx.getRepository(ConversationEntity);
    const latest = await repo.findOne({
      where: { tenantId, businessNumber: party.businessNumber, customer: party.customer },
      order: { lastMessageAt: 'DESC' },
    });
    if (latest && at.getTime() - latest.lastMessageAt.getTime() <= CONVERSATION_SILENCE_MS) return latest;
    const started = repo.create({
      id: newId('cnv'),
      tenantId,
      channelId: party.channelId,
      businessNumber: party.businessNumber,
      customer: party.customer,
      state: 'active',
      replyCount: 0,
      startedAt: at,
      lastMessageAt: at,
    });
    await repo.insert(started);
    return started;
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

  /** Appends turns, advances the conversation (replies counted, hand-off), and forgets what falls out of memory. */
  async record(
    tx: EntityManager,
    tenantId: string,
    conversation: ConversationEntity,
    turns: Turn[],
    change: { handedOff: boolean },
  ): Promise<void> {
    await tx
      .createQueryBuilder()
      .insert()
      .into(ConversationMessageEntity)
      .values(turns.map((t) => ({ conversationId: conversation.id, tenantId, messageId: t.messageId, role: t.role, text: t.text, at: t.at })))
      .execute();
    // The customer's messages drive the clock (a reply follows at once), so a backlog handled late does not stretch a
    // conversation that, as the customer saw it, had long gone silent.
    const lastAt = Math.max(conversation.lastMessageAt.getTime(), ...turns.filter((t) => t.role === 'customer').map((t) => t.at.getTime()));
    await tx.getRepository(ConversationEntity).update(
      { id: conversation.id, tenantId },
      {
        lastMessageAt: new Date(lastAt),
        replyCount: conversation.replyCount + turns.filter((t) => t.role === 'agent').length,
        ...(change.handedOff ? { state: 'handed_off' as const } : {}),
      },
    );
    await tx.query(
      `DELETE FROM conversation_messages
        WHERE conversation_id = $1 AND tenant_id = $2
          AND id <= (SELECT id FROM conversation_messages WHERE conversation_id = $1 ORDER BY id DESC OFFSET $3 LIMIT 1)`,
      [conversation.id, tenantId, CONVERSATION_MEMORY],
    );
  }
}
