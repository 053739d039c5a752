import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

/** One appointment as the feed shows it. */
export interface FeedAppointment {
  id: string;
  agentName: string;
  conversationId: string;
  customer: string;
  startsAt: Date;
  endsAt: Date;
  status: 'booked' | 'cancelled';
  createdAt: Date;
}

/** How often subscribed calendar apps are asked to fetch the feed again (`REFRESH-INTERVAL`, `X-PUBLISHED-TTL`). */
const REFRESH_SECONDS = 15 * 60;

/**
 * The tenant's appointments as an iCalendar (RFC 5545) document, times in UTC. Each appointment is one VEVENT whose
 * UID is its id, so a rescheduled appointment (same id, new times) moves in the subscriber's calendar instead of
 * showing twice, and a cancelled one stays in the feed as `STATUS:CANCELLED`: a client that already has the event
 * then learns it is off, rather than guessing from its absence.
 */
export function renderCalendar(appointments: FeedAppointment[], conversationUrl: (id: string) => string): string {
  const calendar = ical({
    name: 'Parley appointments',
    prodId: { company: 'Parley', product: 'Appointments', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: REFRESH_SECONDS,
  });
  for (const appointment of appointments) {
    const url = conversationUrl(appointment.conversationId);
    calendar.createEvent({
      id: `${appointment.id}@parley`,
      start: appointment.startsAt,
      end: appointment.endsAt,
      created: appointment.createdAt,
      summary: `Appointment with ${appointment.customer}`,
      description: `Booked by the agent "${appointment.agentName}" with ${appointment.customer}.\nConversation: ${url}`,
      url,
      status: appointment.status === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}
