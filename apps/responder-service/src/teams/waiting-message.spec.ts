import { waitingMessage } from './waiting-message';

describe('the waiting message', () => {
  it('says everyone is busy, with the team’s first-response target in the customer’s words', () => {
    expect(waitingMessage({ kind: 'busy', firstResponseSeconds: 900 }, 'en')).toBe(
      'Thanks for waiting: everyone on our team is busy right now. A person will answer you here as soon as possible, usually within 15 minutes.',
    );
    expect(waitingMessage({ kind: 'busy', firstResponseSeconds: 7200 }, 'de')).toContain('innerhalb von 2 Stunden');
    expect(waitingMessage({ kind: 'busy', firstResponseSeconds: null }, 'es')).toBe(
      'Gracias por esperar: ahora mismo todo nuestro equipo está ocupado. Una persona te responderá aquí lo antes posible.',
    );
  });

  it('outside hours gives the team’s closed message (or ours) and the next opening in its time zone', () => {
    const opensAt = new Date('2026-12-07T08:00:00Z'); // Monday 09:00 in Madrid
    expect(waitingMessage({ kind: 'closed', closedMessage: 'We are closed.', opensAt, timezone: 'Europe/Madrid' }, 'en')).toBe(
      'We are closed. We are back on Monday 7 December at 09:00, and a person will answer you then.',
    );
    expect(waitingMessage({ kind: 'closed', closedMessage: null, opensAt, timezone: 'Europe/Madrid' }, 'fr')).toBe(
      'Nous sommes fermés pour le moment et personne de l’équipe ne peut vous répondre. Nous serons de retour lundi 7 décembre à 09:00 et une personne vous répondra alors.',
    );
    expect(waitingMessage({ kind: 'closed', closedMessage: null, opensAt: null, timezone: 'UTC' }, 'pt')).toBe('Neste momento estamos fechados e ninguém da equipa pode responder.');
  });
});
