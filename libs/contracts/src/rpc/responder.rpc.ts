/** responder-service's request-reply patterns (conversations, leads, appointments, agent test: later issues). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ResponderRpc {}
