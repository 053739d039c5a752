import { validationProblem, type FieldError } from '@parley/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ProblemException } from '../http/problem.exception';

/** The one answer to a cursor a list did not hand out (CONTRACT.md §1: a bad cursor → 400). */
export const CURSOR_ERROR: FieldError = { field: 'cursor', message: 'cursor must be the next_cursor of a previous page of this list' };

/** Bytes of HMAC-SHA256 kept in a cursor: enough that guessing one is hopeless, short enough for a URL. */
const TAG_BYTES = 12;
/** Longer than any cursor a list hands out (the gateway refuses more than 200 characters before asking). */
const MAX_CURSOR_CHARS = 200;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The list cursors of every service: opaque (base64url), tamper-evident (an HMAC tag keyed with the service's
 * `CURSOR_SECRET`) and bound to the list that handed them out (its tenant and its name, e.g. `agents` or
 * `webhooks/whk_…/deliveries`). A cursor of another list, an edited one or any other string is refused with a `400`
 * naming `cursor`, never answered with an arbitrary page. Only the service that handed a cursor out reads it back.
 */
export class ListCursors {
  constructor(private readonly secret: string) {}

  /** The cursors of one list of one tenant. */
  of(tenantId: string, list: string): ListCursor {
    return new ListCursor(this.secret, JSON.stringify([tenantId, list]));
  }
}

/** Cursors of one list: a cursor carries the position the next page starts after (an id, a sequence number). */
export class ListCursor {
  constructor(
    private readonly secret: string,
    /** Which list, spelled so that no two lists share a prefix: the tag covers it, then the position. */
    private readonly scope: string,
  ) {}

  /** The cursor of the page after `position`. */
  encode(position: string): string {
    const body = Buffer.from(position, 'utf8');
    return Buffer.concat([this.tag(body), body]).toString('base64url');
  }

  /** The position a cursor names, or null when it is not a cursor this list handed out. */
  decode(cursor: unknown): string | null {
    if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR_CHARS || !BASE64URL.test(cursor)) return null;
    const bytes = Buffer.from(cursor, 'base64url');
    // One spelling per cursor: trailing bits the decoder would drop make another string, which is not ours.
    if (bytes.length <= TAG_BYTES || bytes.toString('base64url') !== cursor) return null;
    const body = bytes.subarray(TAG_BYTES);
    return timingSafeEqual(bytes.subarray(0, TAG_BYTES), this.tag(body)) ? body.toString('utf8') : null;
  }

  /** Where a page starts: after the cursor's position, or at the top without one; any other cursor → 400. */
  after(cursor: string | null | undefined): string | null {
    if (cursor === null || cursor === undefined) return null;
    const position = this.decode(cursor);
    if (position === null) throw new ProblemException(validationProblem([CURSOR_ERROR], 'The query is not valid.'));
    return position;
  }

  /** The `next_cursor` of a page read with one row more than `limit`: the last row's position when there is more. */
  next<T>(rows: T[], limit: number, positionOf: (row: T) => string): string | null {
    return rows.length > limit ? this.encode(positionOf(rows[limit - 1])) : null;
  }

  private tag(body: Buffer): Buffer {
    return createHmac('sha256', this.secret).update(this.scope).update(body).digest().subarray(0, TAG_BYTES);
  }
}
