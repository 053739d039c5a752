/**
 * How long the group commits fed by separate completions wait for company before they write (GroupCommit
 * `lingerMs`). Sends are answered by the provider one HTTP response at a time, and each answer leads to writes (the
 * wamid, the announced `sent`, the parked statuses' look-up): 5 ms lets the answers of one claim share them. Writes
 * whose items come in one turn anyway (a claim's attempt starts, a fetched batch's intake) do not wait: on the way to
 * the provider every millisecond is the customer's, and a paced number's sends must leave on their slots. Measured at 100/s with
 * callbacks on (issue 33, docs/benchmarks.md): the status writes 1.3 -> 0.7 a message, the parked look-ups 0.65 -> 0.33.
 */
export const WRITE_LINGER_MS = 5;
