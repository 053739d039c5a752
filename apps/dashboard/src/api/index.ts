export { createDashboardApi, type DashboardApi } from './client';
export { EVENTS_STREAM_PATH, openEventStream, type StreamState } from './event-stream';
export { ApiError, createSessionClient } from './http';
export type { SseEvent } from './sse-parser';
export * from './types';
export * from './inbox';
export * from './team';
export * from './templates';
export * from './campaigns';
