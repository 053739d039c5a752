import { ConversationDriver } from './conversation-driver';
import { MONDAY_MORNING, clinic } from './test-agents';

const berlin = { ...clinic, booking: { ...clinic.booking!, timezone: 'Europe/Berlin' } };

describe('appointment_booking', () => {
  it('offers free slots inside opening hours, takes "the second one", confirms, and books', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    const offer = await chat.say('hi, I need an apointment pls');
    expect(offer).toMatchObject({ skill: 'appointment_booking' });
    expect(offer.text).toContain('I can offer Mon 23 Nov at 09:00, 09:30 or 10:00 (Europe/London). Which suits you?');
    expect((await chat.say('the second one')).text).toBe('Shall I book Mon 23 Nov, 09:30 (Europe/London) for you? Reply yes to confirm.');
    expect(chat.booked()).toEqual([]);
    const booked = await chat.say('yes');
    expect(booked.text).toBe("You're booked for Mon 23 Nov, 09:30–10:00 (Europe/London). See you then.");
    expect(booked.effects.appointment).toEqual({ startsAt: '2026-11-23T09:30:00.000Z', endsAt: '2026-11-23T10:00:00.000Z', timezone: 'Europe/London', replaces: null });
  });

  it('moves the booking on "actually make it Thursday", keeping the time, in place', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    await chat.say('can I book tomorrow at 2pm?');
    await chat.say('yes');
    expect(chat.booked()).toEqual(['2026-11-24T14:00:00.000Z']);
    expect((await chat.say('actually make it Thursday')).text).toBe(
      'Shall I move your appointment from Tue 24 Nov, 14:00 to Thu 26 Nov, 14:00 (Europe/London)? Reply yes to confirm.',
    );
    const moved = await chat.say('yep thats fine');
    expect(moved.effects.appointment?.replaces).toBe('2026-11-24T14:00:00.000Z');
    expect(chat.booked()).toEqual(['2026-11-26T14:00:00.000Z']);
  });

  it('changes its mind before confirming: "no wait, 3pm instead" keeps the day', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    await chat.say('wednesday 11am?');
    expect((await chat.say('no wait, 3pm instead')).text).toBe('Shall I book Wed 25 Nov, 15:00 (Europe/London) for you? Reply yes to confirm.');
  });

  it('refuses out-of-hours requests and closed days, offering the nearest free alternatives', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    const late = await chat.say('book me in friday 3pm');
    expect(late.text).toContain("we're not open at Fri 27 Nov, 15:00 (our hours: Mon–Thu 09:00–17:00; Fri 09:00–13:00)");
    expect(late.text).toContain('I can offer Fri 27 Nov at 11:30, 12:00 or 12:30');
    const sunday = await chat.say('sunday then?');
    expect(sunday.text).toContain("we're closed on Sundays");
    expect(sunday.effects).toEqual({});
  });

  it('never offers or confirms a taken slot, and offers alternatives when it was taken before the "yes"', async () => {
    const shared: { startsAt: string; endsAt: string; status: 'booked' | 'cancelled' }[] = [];
    const ann = new ConversationDriver(clinic, MONDAY_MORNING, '+447911000001', shared);
    const bob = new ConversationDriver(clinic, MONDAY_MORNING, '+447911000002', shared);
    await ann.say('monday 9am please');
    await bob.say('monday at 9?');
    await ann.say('yes');
    const late = await bob.say('yes');
    expect(late.effects).toEqual({});
    expect(late.text).toContain('Mon 23 Nov, 09:00 has just been taken');
    expect(late.text).toContain('I can offer Mon 23 Nov at 09:30, 10:00 or 10:30');
    expect((await bob.say('i want to book')).text).not.toContain('09:00,');
  });

  it('reads dates and times in the agent timezone (Europe/Berlin: tomorrow 15:00 local is 14:00 UTC)', async () => {
    const chat = new ConversationDriver(berlin, MONDAY_MORNING);
    expect((await chat.say('tmrw at 3pm')).text).toContain('Shall I book Tue 24 Nov, 15:00 (Europe/Berlin) for you? Reply yes to confirm.');
    const booked = await chat.say('ok');
    expect(booked.effects.appointment).toMatchObject({ startsAt: '2026-11-24T14:00:00.000Z', timezone: 'Europe/Berlin' });
  });

  it('refuses a time already past and a time off the slot grid', async () => {
    const afternoon = new ConversationDriver(clinic, new Date('2026-11-23T15:10:00.000Z'));
    expect((await afternoon.say('today at 10am')).text).toContain('Mon 23 Nov, 10:00 has already passed');
    const grid = new ConversationDriver(clinic, MONDAY_MORNING);
    expect((await grid.say('tuesday 10:15')).text).toContain('Appointments start every 30 minutes. I can offer Tue 24 Nov at 09:30, 10:00 or 10:30');
  });

  it('gives up to a person after three messages it cannot understand', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    await chat.say('I want to book an appointment');
    await chat.say('no');
    const answers = [await chat.say('hmm'), await chat.say('dunno'), await chat.say('my cat is sick')];
    expect(answers.map((a) => a.handoff)).toEqual([false, false, true]);
    expect(answers[2].handoffReason).toBe('skill_gave_up');
  });

  it.each(['whenever', 'you pick', 'any time is fine', 'first available please', 'asap'])(
    'proposes the earliest free slot when the customer leaves the choice to the agent (%j)',
    async (choice) => {
      const chat = new ConversationDriver(clinic, MONDAY_MORNING);
      await chat.say('I want to book an appointment');
      await chat.say('monday 9am');
      await chat.say('yes'); // takes Mon 09:00, so the earliest free slot is 09:30
      const other = new ConversationDriver(clinic, MONDAY_MORNING, '+447911000009', chat.bookings);
      await other.say('can I book an appointment?');
      // "first available" picks the first slot just offered, which is the earliest free one too.
      expect((await other.say(choice)).text).toMatch(/^(The earliest free time is Mon 23 Nov, 09:30 \(Europe\/London\)\. Shall I book it|Shall I book Mon 23 Nov, 09:30)/);
      expect((await other.say('yes')).effects.appointment).toMatchObject({ startsAt: '2026-11-23T09:30:00.000Z' });
    },
  );

  it('moves a booking to the earliest free slot on "actually, whenever is soonest"', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    await chat.say('book me thursday at 2pm');
    await chat.say('yes');
    expect((await chat.say('actually can you move it to the earliest you have')).text).toBe(
      'The earliest free time is Mon 23 Nov, 09:00 (Europe/London). Shall I move your appointment there? Reply yes to confirm.',
    );
    expect((await chat.say('yes')).effects.appointment).toMatchObject({ startsAt: '2026-11-23T09:00:00.000Z', replaces: '2026-11-26T14:00:00.000Z' });
  });

  it('takes a change of mind before confirming: "actually 11 would be better" after a proposed 10:00', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    expect((await chat.say('can i come in tomorrow at 10?')).text).toContain('Shall I book Tue 24 Nov, 10:00 (Europe/London) for you? Reply yes to confirm.');
    expect((await chat.say('actually 11 would be better')).text).toBe('Shall I book Tue 24 Nov, 11:00 (Europe/London) for you? Reply yes to confirm.');
    const booked = await chat.say('yes confirm');
    expect(booked.effects.appointment).toEqual({ startsAt: '2026-11-24T11:00:00.000Z', endsAt: '2026-11-24T11:30:00.000Z', timezone: 'Europe/London', replaces: null });
    // After booking, the same words propose a move.
    expect((await chat.say('hmm actually 2 would be better')).text).toBe(
      'Shall I move your appointment from Tue 24 Nov, 11:00 to Tue 24 Nov, 14:00 (Europe/London)? Reply yes to confirm.',
    );
  });

  it('reschedules after booking ("can we move it to Thursday at 4?"), keeping the appointment, then cancels it', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    await chat.say('book me tuesday at 10am');
    await chat.say('yes');
    const appointment = chat.bookings[0];
    expect((await chat.say('can we move it to Thursday at 4?')).text).toBe(
      'Shall I move your appointment from Tue 24 Nov, 10:00 to Thu 26 Nov, 16:00 (Europe/London)? Reply yes to confirm.',
    );
    const moved = await chat.say('sure');
    expect(moved.text).toContain('Done, your appointment is moved to Thu 26 Nov, 16:00–16:30');
    expect(moved.effects.appointment).toEqual({ startsAt: '2026-11-26T16:00:00.000Z', endsAt: '2026-11-26T16:30:00.000Z', timezone: 'Europe/London', replaces: '2026-11-24T10:00:00.000Z' });
    expect(chat.bookings).toEqual([{ startsAt: '2026-11-26T16:00:00.000Z', endsAt: '2026-11-26T16:30:00.000Z', status: 'booked' }]);
    expect(chat.bookings[0]).toBe(appointment);

    const cancelled = await chat.say('cancel my appointment please');
    expect(cancelled.text).toContain('Your appointment on Thu 26 Nov, 16:00 (Europe/London) is cancelled');
    expect(cancelled.effects).toEqual({ cancel: { startsAt: '2026-11-26T16:00:00.000Z' } });
    expect(chat.bookings[0].status).toBe('cancelled');
    expect(chat.state.booking).toBeUndefined();
  });

  it('offers alternatives when the new time of a move is taken, and moves to the one picked', async () => {
    const shared: { startsAt: string; endsAt: string; status: 'booked' | 'cancelled' }[] = [];
    const other = new ConversationDriver(clinic, MONDAY_MORNING, '+447911000003', shared);
    await other.say('book me thursday at 3pm');
    await other.say('yes');
    const chat = new ConversationDriver(clinic, MONDAY_MORNING, '+447911000004', shared);
    await chat.say('book me tuesday at 10am');
    await chat.say('yes');
    const taken = await chat.say('can we move it to thursday at 3pm?');
    expect(taken.text).toContain('Thu 26 Nov, 15:00 is already taken');
    expect(taken.text).toContain('I can offer Thu 26 Nov at 14:00, 14:30 or 15:30');
    expect((await chat.say('the last one')).text).toBe(
      'Shall I move your appointment from Tue 24 Nov, 10:00 to Thu 26 Nov, 15:30 (Europe/London)? Reply yes to confirm.',
    );
    expect((await chat.say('yes')).effects.appointment).toMatchObject({ startsAt: '2026-11-26T15:30:00.000Z', replaces: '2026-11-24T10:00:00.000Z' });
  });

  it('reads a time alone after one day\'s slots were offered as that day ("10:30" after Wednesday 09:00–10:00)', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    expect((await chat.say('quería pedir cita para el miércoles')).text).toContain('mié 25 nov a las 09:00, 09:30 o 10:00');
    expect((await chat.say('10:30')).state.booking).toMatchObject({ stage: 'confirming', pending: '2026-11-25T10:30:00.000+00:00' });
  });

  it.each(['al final no puedo ir, cancela la cita por favor', "sorry I can't make it, please cancel", 'je ne pourrai pas venir', 'ich kann nicht kommen'])(
    'cancels the booking on %j',
    async (text) => {
      const chat = new ConversationDriver(clinic, MONDAY_MORNING);
      await chat.say('book me tuesday at 10am');
      await chat.say('yes');
      expect((await chat.say(text)).effects).toEqual({ cancel: { startsAt: '2026-11-24T10:00:00.000Z' } });
    },
  );

  it('says so when asked to cancel with nothing booked, and a bare "cancel" before booking just stops', async () => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    expect((await chat.say('cancel my appointment')).text).toContain("I can't find an appointment booked in this chat");
    await chat.say('book me tuesday at 10am');
    const stopped = await chat.say('cancel');
    expect(stopped.text).toContain("I won't book anything");
    expect(stopped.effects).toEqual({});
    expect(chat.bookings).toEqual([]);
  });

  it.each([
    ['en', 'can i book tuesday at 10am?', 'yes confirm'],
    ['en', 'appointment tuesday 10am pls', 'yep thats fine'],
    ['es', 'hola, quiero una cita el martes a las 10', 'sí'],
    ['es', 'quiero reservar una cita el martes a las 10:00', 'claro que sí'],
    ['es', 'necesito una cita el martes a las 10', 'vale, perfecto'],
    ['pt', 'olá, quero marcar uma consulta na terça às 10h', 'sim'],
    ['pt', 'quero agendar terça-feira às 10:00', 'pode ser'],
    ['fr', 'bonjour, je voudrais un rendez-vous mardi à 10h', 'oui'],
    ['fr', 'je voudrais réserver mardi à 10h', "d'accord"],
    ['de', 'Hallo, ich hätte gern einen Termin am Dienstag um 10 Uhr', 'ja, passt'],
    ['de', 'kann ich Dienstag um 10 Uhr einen Termin buchen?', 'Genau'],
  ])('books on an ordinary yes (%s: %j then %j)', async (_language, ask, yes) => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    const proposal = await chat.say(ask);
    expect(proposal.state.booking).toMatchObject({ stage: 'confirming', pending: expect.stringContaining('2026-11-24T10:00') });
    expect((await chat.say(yes)).effects.appointment).toMatchObject({ startsAt: '2026-11-24T10:00:00.000Z' });
  });

  it.each([
    ['en', 'can i book tuesday at 10am?', 'nope'],
    ['es', 'quiero una cita el martes a las 10', 'no, gracias'],
    ['pt', 'quero marcar uma consulta na terça às 10h', 'não'],
    ['fr', 'je voudrais un rendez-vous mardi à 10h', 'non merci'],
    ['de', 'ich möchte einen Termin am Dienstag um 10 Uhr', 'nein'],
  ])('books nothing on an ordinary no (%s: %j then %j)', async (_language, ask, no) => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING);
    await chat.say(ask);
    const declined = await chat.say(no);
    expect(declined.effects).toEqual({});
    expect(declined.state.booking).toMatchObject({ stage: 'choosing', pending: null });
  });

  it.each([
    [
      'es',
      ['hola, quiero una cita mañana a las 10', 'mejor a las 11', 'sí', '¿podemos cambiarla al jueves a las 4?', 'vale', 'cancelar mi cita'],
      ['¿Te reservo el mar 24 nov, 10:00', '¿Te reservo el mar 24 nov, 11:00', 'Tu cita está reservada', 'del mar 24 nov, 11:00 al jue 26 nov, 16:00', 'Hecho, tu cita ha cambiado', 'está cancelada'],
    ],
    [
      'pt',
      ['oi, quero marcar uma consulta amanhã às 10h', 'melhor às 11', 'sim', 'dá para mudar para quinta às 16h?', 'pode ser', 'quero cancelar a minha consulta'],
      ['Posso marcar ter. 24 nov., 10:00', '11:00', 'Está marcado', 'para qui.', 'remarcada', 'foi cancelada'],
    ],
    [
      'fr',
      ['bonjour, je voudrais un rendez-vous demain à 10h', 'plutôt 11h', 'oui', 'on peut le déplacer à jeudi 16h ?', "d'accord", 'je veux annuler mon rendez-vous'],
      ['Je vous réserve mar. 24 nov., 10:00', '11:00', "C'est réservé", 'au jeu. 26 nov., 16:00', 'est déplacé', 'est annulé'],
    ],
    [
      'de',
      ['Hallo, ich hätte gern einen Termin morgen um 10 Uhr', 'lieber um 11', 'ja, passt', 'können wir ihn auf Donnerstag um 16 Uhr verschieben?', 'ja', 'bitte den Termin absagen'],
      ['Soll ich Di 24 Nov, 10:00', '11:00', 'Ihr Termin ist gebucht', 'auf Do 26 Nov, 16:00', 'verschoben auf', 'ist abgesagt'],
    ],
  ])('books, changes its mind, reschedules and cancels in %s', async (_language, messages, replies) => {
    const chat = new ConversationDriver(clinic, MONDAY_MORNING, '+34612345678');
    for (const [i, message] of messages.entries()) expect({ message, reply: (await chat.say(message)).text }).toEqual({ message, reply: expect.stringContaining(replies[i]) });
    expect(chat.bookings).toEqual([{ startsAt: '2026-11-26T16:00:00.000Z', endsAt: '2026-11-26T16:30:00.000Z', status: 'cancelled' }]);
  });
});
