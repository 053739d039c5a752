import { Injectable } from '@nestjs/common';
import {
  CreateCannedReplyBody,
  ProblemTypes,
  UpdateCannedReplyBody,
  hasPrefix,
  newId,
  notFoundProblem,
  problem,
  validationProblem,
  type CannedReplyRecord,
  type Page,
} from '@parley/contracts';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import { CannedRepliesStore, ShortcutTakenError } from './canned-replies.store';

const MAX_PAGE = 100;
/** Words of a search, at most: each narrows the list. */
const MAX_WORDS = 10;

/**
 * Canned replies (CONTRACT.md §18). Their variables stay as written (`{{contact.name}}`): they are filled in where the
 * reply is inserted, with the conversation's contact and the member who inserts it.
 */
@Injectable()
export class CannedRepliesService {
  constructor(
    private readonly store: CannedRepliesStore,
    private readonly cursors: ListCursors,
  ) {}

  async create(tenantId: string, rawBody: unknown): Promise<CannedReplyRecord> {
    const body = await validateDto(CreateCannedReplyBody, rawBody);
    return this.taken(body.shortcut, () => this.store.insert(tenantId, newId('cnr'), body.shortcut, body.text));
  }

  /** By shortcut; `q` keeps the replies with each of its words in the shortcut or the text (a leading `/` ignored). */
  async list(tenantId: string, limit: number, cursor: string | null, q: string | null | undefined): Promise<Page<CannedReplyRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, 'canned-replies');
    const after = cursors.after(cursor);
    const words = (q ?? '').replace(/^\//, '').split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
    const rows = await this.store.list(tenantId, words, after, take + 1);
    return { data: rows.slice(0, take), next_cursor: cursors.next(rows, take, (row) => row.shortcut) };
  }

  async get(tenantId: string, id: string): Promise<CannedReplyRecord> {
    const found = hasPrefix(id, 'cnr') ? await this.store.find(tenantId, id) : null;
    if (!found) throw new ProblemException(notFoundProblem(`Canned reply "${id}"`));
    return found;
  }

  async update(tenantId: string, id: string, rawBody: unknown): Promise<CannedReplyRecord> {
    const body = await validateDto(UpdateCannedReplyBody, rawBody);
    if (body.shortcut === undefined && body.text === undefined) {
      throw new ProblemException(validationProblem([{ field: 'text', message: 'give shortcut, text or both' }]));
    }
    const updated = hasPrefix(id, 'cnr') ? await this.taken(body.shortcut, () => this.store.update(tenantId, id, body)) : null;
    if (!updated) throw new ProblemException(notFoundProblem(`Canned reply "${id}"`));
    return updated;
  }

  async delete(tenantId: string, id: string): Promise<void> {
    const deleted = hasPrefix(id, 'cnr') && (await this.store.delete(tenantId, id));
    if (!deleted) throw new ProblemException(notFoundProblem(`Canned reply "${id}"`));
  }

  /** A shortcut names one reply of the tenant: a second one is a conflict (409), not a bad request. */
  private async taken<T>(shortcut: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof ShortcutTakenError)) throw err;
      throw new ProblemException(
        problem(409, ProblemTypes.conflict, 'Shortcut Taken', `Another canned reply already has the shortcut "${shortcut}"; choose another or change that one.`, [
          { field: 'shortcut', message: `shortcut "${shortcut}" is already used by another canned reply` },
        ]),
      );
    }
  }
}
