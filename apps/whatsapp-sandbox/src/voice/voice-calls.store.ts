import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type CallLine = { who: 'agent'; text: string } | { who: 'caller'; text: string } | { who: 'system'; text: string };

/** A call as recorded: where it stands, what the caller's next words are posted to, and what was said. */
export interface CallRow {
  sid: string;
  from: string;
  to: string;
  status: string;
  gather_action: string | null;
  dialled: string | null;
  transcript: CallLine[];
  started_at: Date;
  ended_at: Date | null;
}

/** The calls the sandbox plays, by call sid. */
@Injectable()
export class VoiceCallsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insertRinging(sid: string, from: string, to: string): Promise<void> {
    await this.db.query(`INSERT INTO voice_calls (sid, "from", "to", status) VALUES ($1, $2, $3, 'ringing')`, [sid, from, to]);
  }

  async find(sid: string): Promise<CallRow | null> {
    const [row] = (await this.db.query(`SELECT * FROM voice_calls WHERE sid = $1`, [sid])) as CallRow[];
    return row ?? null;
  }

  /** The call waits for the caller's words, posted to `gatherAction`. */
  async listening(sid: string, gatherAction: string): Promise<void> {
    await this.db.query(`UPDATE voice_calls SET status = 'in-progress', gather_action = $2 WHERE sid = $1`, [sid, gatherAction]);
  }

  /** The call was put through to `number`. */
  async dialled(sid: string, number: string): Promise<void> {
    await this.db.query(`UPDATE voice_calls SET status = 'in-progress', gather_action = NULL, dialled = $2 WHERE sid = $1`, [sid, number]);
  }

  async end(sid: string, status: 'completed' | 'failed'): Promise<void> {
    await this.db.query(`UPDATE voice_calls SET status = $2, gather_action = NULL, ended_at = now() WHERE sid = $1`, [sid, status]);
  }

  async append(sid: string, lines: CallLine[]): Promise<void> {
    await this.db.query(`UPDATE voice_calls SET transcript = transcript || $2::jsonb WHERE sid = $1`, [sid, JSON.stringify(lines)]);
  }
}
