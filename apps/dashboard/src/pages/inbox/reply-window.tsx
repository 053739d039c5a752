import { useEffect, useState } from 'react';
import { formatTime } from '../../components/format';

/** Whether the customer's 24-hour service window is open now (free-form replies allowed; else only templates). */
export function windowOpen(expiresAt: string | null | undefined, now = Date.now()): boolean {
  return !!expiresAt && Date.parse(expiresAt) > now;
}

function remaining(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

/** The 24-hour window, counted down each minute. */
export function ReplyWindow({ expiresAt }: { expiresAt: string | null | undefined }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  const open = windowOpen(expiresAt, now);
  return (
    <p className={`small reply-window ${open ? 'open' : 'closed'}`} data-testid="reply-window" data-open={open}>
      {open && expiresAt
        ? `Reply window open: ${remaining(Date.parse(expiresAt) - now)} left (until ${formatTime(expiresAt)}).`
        : 'Reply window closed: the customer last wrote more than 24 hours ago.'}
    </p>
  );
}
