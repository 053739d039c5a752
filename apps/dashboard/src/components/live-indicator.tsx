import { useLiveEvents } from '../session/live-events';

/** Whether the shown lists follow the event stream, or (stream down) refresh slowly on their own. */
export function LiveIndicator() {
  const { state } = useLiveEvents();
  return (
    <span className={state === 'open' ? 'live' : 'live muted'} data-stream-state={state} title={state === 'open' ? 'Updates arrive as they happen' : undefined}>
      {state === 'open' ? '● live' : state === 'down' ? '○ reconnecting…' : '○ connecting…'}
    </span>
  );
}
