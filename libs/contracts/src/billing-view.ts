/**
 * The spendable-balance view billing-service keeps in Redis for the gateway's send path (CONTRACT.md §16), so a paid
 * send is checked without a call to billing-service. Amounts are integer millionths of the wallet's currency.
 *
 * - `<prefix>prices` (hash): `<plan>:<category>` → unit price; `free_allowance` → free sends per month on `free`.
 * - `<prefix>view:<tenant>` (hash): `balance`, `free_left` and `version`, written by billing-service from its ledger
 *   (a push older than the stored `version` is ignored); `pending` and `free_pending`, what the gateway reserved for
 *   sends billing-service has not yet charged.
 * - `<prefix>pending:<tenant>` (hash): message id → its reservation (`f` for a free send), removed by billing-service
 *   once it has charged that message (its balance then carries the hold) or by the gateway when the send failed.
 */
export const billingViewKeys = (prefix: string, tenantId: string) => ({
  view: `${prefix}view:${tenantId}`,
  pending: `${prefix}pending:${tenantId}`,
});
export const billingPricesKey = (prefix: string) => `${prefix}prices`;

/** Drops a message's reservation (KEYS: view, pending; ARGV: message id). */
const RELEASE = `
local r = redis.call('HGET', KEYS[2], ARGV[1])
if r then
  redis.call('HDEL', KEYS[2], ARGV[1])
  if r == 'f' then redis.call('HINCRBY', KEYS[1], 'free_pending', -1) else redis.call('HINCRBY', KEYS[1], 'pending', -tonumber(r)) end
end`;

/**
 * The gateway's atomic check and reservation. KEYS: view, pending. ARGV: message id, price, `1` when the plan has a
 * free allowance, the allowance (when billing has no view of the tenant yet). Answers 1 (go ahead) or 0 (refuse).
 * A message already reserved (a retried send) is not reserved twice.
 */
export const RESERVE_SEND_SCRIPT = `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 1 end
local v = redis.call('HMGET', KEYS[1], 'balance', 'free_left', 'pending', 'free_pending')
local balance = tonumber(v[1] or '0')
local free_left = tonumber(v[2] or ARGV[4])
local pending = tonumber(v[3] or '0')
local free_pending = tonumber(v[4] or '0')
if ARGV[3] == '1' and free_left - free_pending > 0 then
  redis.call('HSET', KEYS[2], ARGV[1], 'f')
  redis.call('HINCRBY', KEYS[1], 'free_pending', 1)
  return 1
end
local price = tonumber(ARGV[2])
if price <= 0 then return 1 end
if balance - pending >= price then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
  redis.call('HINCRBY', KEYS[1], 'pending', price)
  return 1
end
return 0`;

/** The gateway gives a reservation back when its send was not queued. KEYS: view, pending. ARGV: message id. */
export const RELEASE_SEND_SCRIPT = RELEASE;

/**
 * billing-service's push after a change. KEYS: view, pending. ARGV: version, balance, free_left, and the message it
 * has just charged (or ''), whose reservation the new balance replaces.
 */
export const PUSH_VIEW_SCRIPT = `
if ARGV[4] ~= '' then
  local r = redis.call('HGET', KEYS[2], ARGV[4])
  if r then
    redis.call('HDEL', KEYS[2], ARGV[4])
    if r == 'f' then redis.call('HINCRBY', KEYS[1], 'free_pending', -1) else redis.call('HINCRBY', KEYS[1], 'pending', -tonumber(r)) end
  end
end
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if tonumber(ARGV[1]) > stored then
  redis.call('HSET', KEYS[1], 'version', ARGV[1], 'balance', ARGV[2], 'free_left', ARGV[3])
end
return 1`;
