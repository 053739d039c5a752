import { Injectable } from '@nestjs/common';
import type { InboxActor, MessageFeedbackRecord } from '@parley/contracts';
import type { EntityManager } from 'typeorm';

interface FeedbackRow {
  conversation_id: string;
  message_id: string;
  verdict: 'right' | 'wrong';
  note: string | null;
  gap_id: string | null;
  at: Date;
}

/** Verdicts on agent replies in SQL, one per reply (the latest counts); scoped by tenant. */
@Injectable()
export class FeedbackStore {
  async upsert(
    tx: EntityManager,
    tenantId: string,
    feedback: { conversationId: string; messageId: string; verdict: 'right' | 'wrong'; note: string | null; actor: InboxActor; gapId: string | null },
  ): Promise<MessageFeedbackRecord> {
    const [row]: FeedbackRow[] = await tx.query(
      `INSERT INTO message_feedback (tenant_id, message_id, conversation_id, verdict, note, actor, gap_id) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
       ON CONFLICT (tenant_id, message_id) DO UPDATE SET verdict = EXCLUDED.verdict, note = EXCLUDED.note, actor = EXCLUDED.actor,
         gap_id = COALESCE(EXCLUDED.gap_id, message_feedback.gap_id), at = now()
       RETURNING conversation_id, message_id, verdict, note, gap_id, at`,
      [tenantId, feedback.messageId, feedback.conversationId, feedback.verdict, feedback.note, JSON.stringify(feedback.actor), feedback.gapId],
    );
    return { conversation_id: row.conversation_id, message_id: row.message_id, verdict: row.verdict, note: row.note, gap_id: row.gap_id, at: row.at.toISOString() };
  }
}
