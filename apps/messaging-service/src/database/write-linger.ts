/**
 * How long this service's group commits wait for company before they write (GroupCommit `lingerMs`). Sends are
 * answered by the provider one HTTP response at a time, and each answer leads to writes (the wamid, the announced
 * `sent`, the parked statuses' look-up): 5 ms lets the answers of one claim share them. Measured at 100/s with
 * callbacks on (issue 33, docs/benchmarks.md): the status writes 1.3 -> 0.7 a message, the parked look-ups 0.65 -> 0.33.
 */
export const WRITE_LINGER_MS = 5;
