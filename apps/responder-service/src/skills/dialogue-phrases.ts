import type { Language } from '../knowledge/language';

export type LeadQuestion = 'name' | 'email' | 'phone' | 'interest';

/**
 * What the lead and booking dialogues say, in the five languages the engine answers in (CONTRACT.md §11). Slots and
 * days arrive already written in the customer's language (calendar.ts formats them with the locale).
 */
export interface DialoguePhrases {
  ask: Record<LeadQuestion, string>;
  niceToMeet(name: string): string;
  thanks: string;
  unreadable(field: 'email' | 'phone'): string;
  fieldNames: Record<LeadQuestion, string>;
  updatedFields(fields: string): string;
  /** `details`: what was collected, written by `leadSummary`. */
  leadCaptured(name: string, details: string): string;
  interestedIn(interest: string): string;
  leadUpdated(name: string, details: string): string;
  leadSkipped: string;

  offer(slots: string, zone: string): string;
  noFreeTimes(days: number): string;
  confirmBook(slot: string, zone: string): string;
  confirmMove(from: string, to: string, zone: string): string;
  earliestBook(slot: string, zone: string): string;
  earliestMove(slot: string, zone: string): string;
  booked(slot: string, end: string, zone: string): string;
  moved(slot: string, end: string, zone: string): string;
  justTaken(slot: string): string;
  declined: string;
  closedOn(day: string, hours: string): string;
  nothingFreeOn(day: string, hours: string): string;
  past(slot: string): string;
  notOpenAt(slot: string, hours: string): string;
  misaligned(minutes: number): string;
  taken(slot: string): string;
  alreadyBooked(slot: string, zone: string): string;
  cancelled(slot: string, zone: string): string;
  nothingToCancel: string;
  gaveUp: string;
  didNotCatch(slots: string | null, zone: string): string;
  or: string;
  /** Between a day and its times: "Mon 24 Nov at 09:00 or 09:30". */
  at: string;
  stopped: string;
  /** After a side question in the middle of a booking: the slot proposed is still there (CONTRACT §20). */
  stillFree(slot: string, zone: string): string;
  /** After a side question while slots were on offer. */
  stillOffered(slots: string, zone: string): string;
}

const en: DialoguePhrases = {
  ask: {
    name: 'May I have your name?',
    email: "What's the best email address to reach you?",
    phone: "What's the best phone number to reach you?",
    interest: 'What are you interested in?',
  },
  niceToMeet: (name) => `Nice to meet you, ${name}! `,
  thanks: 'Thanks! ',
  unreadable: (field) => `Sorry, I couldn't read that as ${field === 'email' ? 'an email address' : 'a phone number'}. `,
  fieldNames: { name: 'name', email: 'email', phone: 'phone number', interest: 'interest' },
  updatedFields: (fields) => `Got it, I've updated your ${fields}. `,
  leadCaptured: (name, details) => `Thank you, ${name}! I've passed your details to our team (${details}). Someone will be in touch soon.`,
  interestedIn: (interest) => `interested in ${interest}`,
  leadUpdated: (name, details) => `Thanks, ${name}, I've updated your details: ${details}.`,
  leadSkipped: 'No problem. ',

  offer: (slots, zone) => `I can offer ${slots} (${zone}). Which suits you?`,
  noFreeTimes: (days) => `I'm afraid there are no free times in the next ${days} days. Would you like me to connect you with our team?`,
  confirmBook: (slot, zone) => `Shall I book ${slot} (${zone}) for you? Reply yes to confirm.`,
  confirmMove: (from, to, zone) => `Shall I move your appointment from ${from} to ${to} (${zone})? Reply yes to confirm.`,
  earliestBook: (slot, zone) => `The earliest free time is ${slot} (${zone}). Shall I book it for you? Reply yes to confirm.`,
  earliestMove: (slot, zone) => `The earliest free time is ${slot} (${zone}). Shall I move your appointment there? Reply yes to confirm.`,
  booked: (slot, end, zone) => `You're booked for ${slot}–${end} (${zone}). See you then!`,
  moved: (slot, end, zone) => `Done, your appointment is moved to ${slot}–${end} (${zone}). See you then!`,
  justTaken: (slot) => `Sorry, ${slot} has just been taken. `,
  declined: 'No problem. Which other day or time would suit you?',
  closedOn: (day, hours) => `Sorry, we're closed on ${day}s (our hours: ${hours}). `,
  nothingFreeOn: (day, hours) => `Sorry, we have nothing free on ${day} (our hours: ${hours}). `,
  past: (slot) => `${slot} has already passed. `,
  notOpenAt: (slot, hours) => `Sorry, we're not open at ${slot} (our hours: ${hours}). `,
  misaligned: (minutes) => `Appointments start every ${minutes} minutes. `,
  taken: (slot) => `Sorry, ${slot} is already taken. `,
  alreadyBooked: (slot, zone) => `You're booked for ${slot} (${zone}). Would you like to change it? Just tell me the new day or time.`,
  cancelled: (slot, zone) => `Your appointment on ${slot} (${zone}) is cancelled. Would you like to book another time?`,
  nothingToCancel: "I can't find an appointment booked in this chat. Would you like to book one?",
  gaveUp: "I'm sorry, I'm having trouble finding a time with you. I'm passing you to a member of our team, who will reply here.",
  didNotCatch: (slots, zone) => `Sorry, I didn't catch a day or time. You can say something like "Tuesday at 10am"${slots ? `, or pick one of ${slots} (${zone})` : ''}.`,
  or: 'or',
  at: 'at',
  stopped: "No problem, I won't book anything. Is there anything else I can help you with?",
  stillFree: (slot, zone) => `Your ${slot} (${zone}) is still free if you want it: reply yes to book it.`,
  stillOffered: (slots, zone) => `I can still offer ${slots} (${zone}) if you'd like to book.`,
};

const es: DialoguePhrases = {
  ask: {
    name: '¿Me dices tu nombre?',
    email: '¿Cuál es el mejor correo electrónico para contactarte?',
    phone: '¿Cuál es el mejor número de teléfono para contactarte?',
    interest: '¿Qué te interesa?',
  },
  niceToMeet: (name) => `¡Encantado de conocerte, ${name}! `,
  thanks: '¡Gracias! ',
  unreadable: (field) => `Perdona, no he podido leer eso como ${field === 'email' ? 'un correo electrónico' : 'un número de teléfono'}. `,
  fieldNames: { name: 'nombre', email: 'correo', phone: 'teléfono', interest: 'interés' },
  updatedFields: (fields) => `Entendido, he actualizado tu ${fields}. `,
  leadCaptured: (name, details) => `¡Gracias, ${name}! He pasado tus datos a nuestro equipo (${details}). Alguien se pondrá en contacto contigo pronto.`,
  interestedIn: (interest) => `interés: ${interest}`,
  leadUpdated: (name, details) => `Gracias, ${name}, he actualizado tus datos: ${details}.`,
  leadSkipped: 'Sin problema. ',

  offer: (slots, zone) => `Puedo ofrecerte ${slots} (${zone}). ¿Cuál te viene bien?`,
  noFreeTimes: (days) => `Lo siento, no hay horas libres en los próximos ${days} días. ¿Quieres que te ponga en contacto con nuestro equipo?`,
  confirmBook: (slot, zone) => `¿Te reservo el ${slot} (${zone})? Responde sí para confirmar.`,
  confirmMove: (from, to, zone) => `¿Cambio tu cita del ${from} al ${to} (${zone})? Responde sí para confirmar.`,
  earliestBook: (slot, zone) => `La primera hora libre es el ${slot} (${zone}). ¿Te la reservo? Responde sí para confirmar.`,
  earliestMove: (slot, zone) => `La primera hora libre es el ${slot} (${zone}). ¿Cambio tu cita a esa hora? Responde sí para confirmar.`,
  booked: (slot, end, zone) => `Tu cita está reservada: ${slot}–${end} (${zone}). ¡Hasta entonces!`,
  moved: (slot, end, zone) => `Hecho, tu cita ha cambiado al ${slot}–${end} (${zone}). ¡Hasta entonces!`,
  justTaken: (slot) => `Lo siento, el ${slot} se acaba de ocupar. `,
  declined: 'Sin problema. ¿Qué otro día u hora te vendría bien?',
  closedOn: (day, hours) => `Lo siento, el ${day} está cerrado (nuestro horario: ${hours}). `,
  nothingFreeOn: (day, hours) => `Lo siento, no nos queda nada libre el ${day} (nuestro horario: ${hours}). `,
  past: (slot) => `El ${slot} ya ha pasado. `,
  notOpenAt: (slot, hours) => `Lo siento, no abrimos el ${slot} (nuestro horario: ${hours}). `,
  misaligned: (minutes) => `Las citas empiezan cada ${minutes} minutos. `,
  taken: (slot) => `Lo siento, el ${slot} ya está ocupado. `,
  alreadyBooked: (slot, zone) => `Tienes cita el ${slot} (${zone}). ¿Quieres cambiarla? Dime el nuevo día u hora.`,
  cancelled: (slot, zone) => `Tu cita del ${slot} (${zone}) está cancelada. ¿Quieres reservar otra hora?`,
  nothingToCancel: 'No encuentro ninguna cita reservada en este chat. ¿Quieres reservar una?',
  gaveUp: 'Lo siento, me está costando encontrar una hora contigo. Te paso con una persona de nuestro equipo, que te responderá aquí.',
  didNotCatch: (slots, zone) => `Perdona, no he entendido el día o la hora. Puedes decir algo como "el martes a las 10"${slots ? `, o elegir ${slots} (${zone})` : ''}.`,
  or: 'o',
  at: 'a las',
  stopped: 'Sin problema, no reservo nada. ¿Puedo ayudarte con algo más?',
  stillFree: (slot, zone) => `Tu hueco del ${slot} (${zone}) sigue libre si lo quieres: responde sí para reservarlo.`,
  stillOffered: (slots, zone) => `Si quieres reservar, sigo pudiendo ofrecerte ${slots} (${zone}).`,
};

const pt: DialoguePhrases = {
  ask: {
    name: 'Qual é o seu nome?',
    email: 'Qual é o melhor e-mail para falarmos com você?',
    phone: 'Qual é o melhor número de telefone para falarmos com você?',
    interest: 'Em que você está interessado?',
  },
  niceToMeet: (name) => `Prazer em conhecê-lo, ${name}! `,
  thanks: 'Obrigado! ',
  unreadable: (field) => `Desculpe, não consegui ler isso como ${field === 'email' ? 'um e-mail' : 'um número de telefone'}. `,
  fieldNames: { name: 'nome', email: 'e-mail', phone: 'telefone', interest: 'interesse' },
  updatedFields: (fields) => `Certo, atualizei o seu ${fields}. `,
  leadCaptured: (name, details) => `Obrigado, ${name}! Passei os seus dados para a nossa equipe (${details}). Alguém entrará em contato em breve.`,
  interestedIn: (interest) => `interesse: ${interest}`,
  leadUpdated: (name, details) => `Obrigado, ${name}, atualizei os seus dados: ${details}.`,
  leadSkipped: 'Sem problema. ',

  offer: (slots, zone) => `Posso oferecer ${slots} (${zone}). Qual fica melhor para você?`,
  noFreeTimes: (days) => `Infelizmente não há horários livres nos próximos ${days} dias. Quer que eu passe você para a nossa equipe?`,
  confirmBook: (slot, zone) => `Posso marcar ${slot} (${zone}) para você? Responda sim para confirmar.`,
  confirmMove: (from, to, zone) => `Posso mudar a sua consulta de ${from} para ${to} (${zone})? Responda sim para confirmar.`,
  earliestBook: (slot, zone) => `O primeiro horário livre é ${slot} (${zone}). Posso marcar? Responda sim para confirmar.`,
  earliestMove: (slot, zone) => `O primeiro horário livre é ${slot} (${zone}). Posso mudar a sua consulta para esse horário? Responda sim para confirmar.`,
  booked: (slot, end, zone) => `Está marcado: ${slot}–${end} (${zone}). Até lá!`,
  moved: (slot, end, zone) => `Pronto, a sua consulta foi remarcada para ${slot}–${end} (${zone}). Até lá!`,
  justTaken: (slot) => `Desculpe, ${slot} acabou de ser ocupado. `,
  declined: 'Sem problema. Que outro dia ou horário seria bom para você?',
  closedOn: (day, hours) => `Desculpe, estamos fechados em ${day} (nosso horário: ${hours}). `,
  nothingFreeOn: (day, hours) => `Desculpe, não temos nada livre em ${day} (nosso horário: ${hours}). `,
  past: (slot) => `${slot} já passou. `,
  notOpenAt: (slot, hours) => `Desculpe, não estamos abertos em ${slot} (nosso horário: ${hours}). `,
  misaligned: (minutes) => `As consultas começam a cada ${minutes} minutos. `,
  taken: (slot) => `Desculpe, ${slot} já está ocupado. `,
  alreadyBooked: (slot, zone) => `A sua consulta está marcada para ${slot} (${zone}). Quer mudar? É só dizer o novo dia ou horário.`,
  cancelled: (slot, zone) => `A sua consulta de ${slot} (${zone}) foi cancelada. Quer marcar outro horário?`,
  nothingToCancel: 'Não encontro nenhuma consulta marcada nesta conversa. Quer marcar uma?',
  gaveUp: 'Desculpe, estou com dificuldade para encontrar um horário. Vou passar você para alguém da nossa equipe, que responderá aqui.',
  didNotCatch: (slots, zone) => `Desculpe, não entendi o dia ou o horário. Você pode dizer algo como "terça às 10h"${slots ? `, ou escolher ${slots} (${zone})` : ''}.`,
  or: 'ou',
  at: 'às',
  stopped: 'Sem problema, não vou marcar nada. Posso ajudar com mais alguma coisa?',
  stillFree: (slot, zone) => `O horário de ${slot} (${zone}) ainda está livre se quiser: responda sim para marcar.`,
  stillOffered: (slots, zone) => `Se quiser marcar, ainda posso oferecer ${slots} (${zone}).`,
};

const fr: DialoguePhrases = {
  ask: {
    name: 'Puis-je avoir votre nom ?',
    email: 'Quelle est la meilleure adresse e-mail pour vous joindre ?',
    phone: 'Quel est le meilleur numéro de téléphone pour vous joindre ?',
    interest: "Qu'est-ce qui vous intéresse ?",
  },
  niceToMeet: (name) => `Enchanté, ${name} ! `,
  thanks: 'Merci ! ',
  unreadable: (field) => `Désolé, je n'ai pas pu lire cela comme ${field === 'email' ? 'une adresse e-mail' : 'un numéro de téléphone'}. `,
  fieldNames: { name: 'nom', email: 'e-mail', phone: 'numéro de téléphone', interest: 'intérêt' },
  updatedFields: (fields) => `C'est noté, j'ai mis à jour votre ${fields}. `,
  leadCaptured: (name, details) => `Merci, ${name} ! J'ai transmis vos coordonnées à notre équipe (${details}). Quelqu'un vous contactera bientôt.`,
  interestedIn: (interest) => `intérêt : ${interest}`,
  leadUpdated: (name, details) => `Merci, ${name}, j'ai mis à jour vos coordonnées : ${details}.`,
  leadSkipped: 'Pas de problème. ',

  offer: (slots, zone) => `Je peux vous proposer ${slots} (${zone}). Qu'est-ce qui vous convient ?`,
  noFreeTimes: (days) => `Malheureusement, il n'y a pas de créneau libre dans les ${days} prochains jours. Voulez-vous que je vous mette en relation avec notre équipe ?`,
  confirmBook: (slot, zone) => `Je vous réserve ${slot} (${zone}) ? Répondez oui pour confirmer.`,
  confirmMove: (from, to, zone) => `Je déplace votre rendez-vous du ${from} au ${to} (${zone}) ? Répondez oui pour confirmer.`,
  earliestBook: (slot, zone) => `Le premier créneau libre est ${slot} (${zone}). Je vous le réserve ? Répondez oui pour confirmer.`,
  earliestMove: (slot, zone) => `Le premier créneau libre est ${slot} (${zone}). Je déplace votre rendez-vous ? Répondez oui pour confirmer.`,
  booked: (slot, end, zone) => `C'est réservé : ${slot}–${end} (${zone}). À bientôt !`,
  moved: (slot, end, zone) => `C'est fait, votre rendez-vous est déplacé au ${slot}–${end} (${zone}). À bientôt !`,
  justTaken: (slot) => `Désolé, ${slot} vient d'être pris. `,
  declined: 'Pas de problème. Quel autre jour ou quelle autre heure vous conviendrait ?',
  closedOn: (day, hours) => `Désolé, nous sommes fermés le ${day} (nos horaires : ${hours}). `,
  nothingFreeOn: (day, hours) => `Désolé, nous n'avons plus rien de libre le ${day} (nos horaires : ${hours}). `,
  past: (slot) => `${slot} est déjà passé. `,
  notOpenAt: (slot, hours) => `Désolé, nous ne sommes pas ouverts le ${slot} (nos horaires : ${hours}). `,
  misaligned: (minutes) => `Les rendez-vous commencent toutes les ${minutes} minutes. `,
  taken: (slot) => `Désolé, ${slot} est déjà pris. `,
  alreadyBooked: (slot, zone) => `Votre rendez-vous est le ${slot} (${zone}). Voulez-vous le changer ? Indiquez-moi le nouveau jour ou la nouvelle heure.`,
  cancelled: (slot, zone) => `Votre rendez-vous du ${slot} (${zone}) est annulé. Voulez-vous réserver un autre créneau ?`,
  nothingToCancel: 'Je ne trouve aucun rendez-vous réservé dans cette conversation. Voulez-vous en prendre un ?',
  gaveUp: "Désolé, j'ai du mal à trouver un créneau avec vous. Je vous passe un membre de notre équipe, qui vous répondra ici.",
  didNotCatch: (slots, zone) => `Désolé, je n'ai pas compris le jour ou l'heure. Vous pouvez dire par exemple « mardi à 10h »${slots ? `, ou choisir ${slots} (${zone})` : ''}.`,
  or: 'ou',
  at: 'à',
  stopped: 'Pas de problème, je ne réserve rien. Puis-je vous aider pour autre chose ?',
  stillFree: (slot, zone) => `Le créneau du ${slot} (${zone}) est toujours libre si vous le souhaitez : répondez oui pour le réserver.`,
  stillOffered: (slots, zone) => `Si vous voulez réserver, je peux toujours vous proposer ${slots} (${zone}).`,
};

const de: DialoguePhrases = {
  ask: {
    name: 'Wie ist Ihr Name?',
    email: 'Unter welcher E-Mail-Adresse erreichen wir Sie am besten?',
    phone: 'Unter welcher Telefonnummer erreichen wir Sie am besten?',
    interest: 'Wofür interessieren Sie sich?',
  },
  niceToMeet: (name) => `Freut mich, ${name}! `,
  thanks: 'Danke! ',
  unreadable: (field) => `Entschuldigung, das konnte ich nicht als ${field === 'email' ? 'E-Mail-Adresse' : 'Telefonnummer'} lesen. `,
  fieldNames: { name: 'Namen', email: 'E-Mail-Adresse', phone: 'Telefonnummer', interest: 'Anliegen' },
  updatedFields: (fields) => `Alles klar, ich habe Ihre ${fields} aktualisiert. `,
  leadCaptured: (name, details) => `Danke, ${name}! Ich habe Ihre Angaben an unser Team weitergegeben (${details}). Wir melden uns bald bei Ihnen.`,
  interestedIn: (interest) => `Interesse: ${interest}`,
  leadUpdated: (name, details) => `Danke, ${name}, ich habe Ihre Angaben aktualisiert: ${details}.`,
  leadSkipped: 'Kein Problem. ',

  offer: (slots, zone) => `Ich kann Ihnen ${slots} (${zone}) anbieten. Was passt Ihnen?`,
  noFreeTimes: (days) => `Leider gibt es in den nächsten ${days} Tagen keine freien Termine. Soll ich Sie mit unserem Team verbinden?`,
  confirmBook: (slot, zone) => `Soll ich ${slot} (${zone}) für Sie buchen? Antworten Sie mit Ja zum Bestätigen.`,
  confirmMove: (from, to, zone) => `Soll ich Ihren Termin von ${from} auf ${to} (${zone}) verschieben? Antworten Sie mit Ja zum Bestätigen.`,
  earliestBook: (slot, zone) => `Der früheste freie Termin ist ${slot} (${zone}). Soll ich ihn buchen? Antworten Sie mit Ja zum Bestätigen.`,
  earliestMove: (slot, zone) => `Der früheste freie Termin ist ${slot} (${zone}). Soll ich Ihren Termin dorthin verschieben? Antworten Sie mit Ja zum Bestätigen.`,
  booked: (slot, end, zone) => `Ihr Termin ist gebucht: ${slot}–${end} (${zone}). Bis dann!`,
  moved: (slot, end, zone) => `Erledigt, Ihr Termin ist verschoben auf ${slot}–${end} (${zone}). Bis dann!`,
  justTaken: (slot) => `Entschuldigung, ${slot} wurde gerade vergeben. `,
  declined: 'Kein Problem. Welcher andere Tag oder welche andere Uhrzeit würde Ihnen passen?',
  closedOn: (day, hours) => `Entschuldigung, am ${day} haben wir geschlossen (unsere Zeiten: ${hours}). `,
  nothingFreeOn: (day, hours) => `Entschuldigung, am ${day} ist nichts mehr frei (unsere Zeiten: ${hours}). `,
  past: (slot) => `${slot} ist schon vorbei. `,
  notOpenAt: (slot, hours) => `Entschuldigung, ${slot} haben wir nicht geöffnet (unsere Zeiten: ${hours}). `,
  misaligned: (minutes) => `Termine beginnen alle ${minutes} Minuten. `,
  taken: (slot) => `Entschuldigung, ${slot} ist schon vergeben. `,
  alreadyBooked: (slot, zone) => `Ihr Termin ist am ${slot} (${zone}). Möchten Sie ihn ändern? Nennen Sie mir einfach den neuen Tag oder die Uhrzeit.`,
  cancelled: (slot, zone) => `Ihr Termin am ${slot} (${zone}) ist abgesagt. Möchten Sie einen anderen Termin buchen?`,
  nothingToCancel: 'Ich finde in diesem Chat keinen gebuchten Termin. Möchten Sie einen buchen?',
  gaveUp: 'Entschuldigung, ich finde keinen passenden Termin mit Ihnen. Ich übergebe Sie an unser Team, das Ihnen hier antwortet.',
  didNotCatch: (slots, zone) => `Entschuldigung, ich habe Tag oder Uhrzeit nicht verstanden. Sie können etwa „Dienstag um 10 Uhr“ sagen${slots ? ` oder ${slots} (${zone}) wählen` : ''}.`,
  or: 'oder',
  at: 'um',
  stopped: 'Kein Problem, ich buche nichts. Kann ich Ihnen sonst noch helfen?',
  stillFree: (slot, zone) => `Der Termin ${slot} (${zone}) ist noch frei, wenn Sie möchten: antworten Sie mit Ja, um ihn zu buchen.`,
  stillOffered: (slots, zone) => `Wenn Sie buchen möchten, kann ich Ihnen weiterhin ${slots} (${zone}) anbieten.`,
};

const PHRASES: Record<Language, DialoguePhrases> = { en, es, pt, fr, de };

/** The dialogue phrases in a language (English when none is known). */
export function phrasesIn(language: Language | undefined): DialoguePhrases {
  return PHRASES[language ?? 'en'];
}

/** "a, b or c" in the language. */
export function listed(items: string[], language: Language = 'en'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${PHRASES[language].or} ${items[items.length - 1]}`;
}
