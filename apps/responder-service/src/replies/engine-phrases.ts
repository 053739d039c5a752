import type { Skill } from '@parley/contracts';
import type { Language } from '../knowledge/language';

/** What the engine writes itself (not the tenant's knowledge, not the lead and booking dialogue), in each language. */
export interface EnginePhrases {
  toHuman: string;
  /** On a call, where handing over puts the caller through to a person at once (the voice channel's `forward_to`). */
  toHumanOnCall: string;
  declinedHuman: string;
  youreWelcome: string;
  anythingElse: string;
  /** Not known: says so and offers a person (a "yes" then hands over). */
  notKnown: string;
  /** Not known again: hands over without asking. */
  notKnownGiveUp: string;
  /** Not known, in the middle of a booking or lead dialogue (which is offered again after it, not a person). */
  notKnownMidDialogue: string;
  /** A complaint: an apology, and a person. */
  sorryToHear: string;
  sorryToHearOnCall: string;
  /** Praise. */
  gladToHear: string;
  /** A greeting answered. */
  howCanIHelp: string;
  welcome: (agentName: string) => string;
  willGetBack: string;
  canHelpWith: (offers: string) => string;
  offers: Record<Skill, string>;
  or: string;
}

export const ENGINE_PHRASES: Record<Language, EnginePhrases> = {
  en: {
    toHuman: "Of course. I'm passing you to a member of our team, who will reply here shortly.",
    toHumanOnCall: "Of course. I'm putting you through to a member of our team now.",
    declinedHuman: 'No problem. Is there anything else I can help you with?',
    youreWelcome: "You're welcome! Is there anything else I can help you with?",
    anythingElse: 'Is there anything else I can help you with?',
    notKnown: "I'm sorry, I don't know the answer to that. Would you like me to connect you with a person from our team?",
    notKnownGiveUp: "I'm sorry, I don't know that either. I'm passing you to a member of our team, who will reply here.",
    notKnownMidDialogue: "I'm sorry, I don't know the answer to that.",
    sorryToHear: "I'm really sorry to hear that. I'm passing you to a member of our team, who will reply here shortly.",
    sorryToHearOnCall: "I'm really sorry to hear that. I'm putting you through to a member of our team now.",
    gladToHear: "Thank you, that's lovely to hear! Is there anything else I can help you with?",
    howCanIHelp: 'How can I help you today?',
    welcome: (name) => `Thanks for your message! You're chatting with ${name}.`,
    willGetBack: 'We have received it and will get back to you.',
    canHelpWith: (offers) => `I can ${offers}. How can I help you today?`,
    offers: { faq_responder: 'answer your questions', lead_capture: 'pass your details to our team', appointment_booking: 'book an appointment for you' },
    or: 'or',
  },
  es: {
    toHuman: 'Por supuesto. Te paso con una persona de nuestro equipo, que te responderá aquí en breve.',
    toHumanOnCall: 'Por supuesto. Te paso ahora con una persona de nuestro equipo.',
    declinedHuman: 'De acuerdo. ¿Hay algo más en lo que pueda ayudarte?',
    youreWelcome: '¡De nada! ¿Hay algo más en lo que pueda ayudarte?',
    anythingElse: '¿Hay algo más en lo que pueda ayudarte?',
    notKnown: 'Lo siento, no sé la respuesta a eso. ¿Quieres que te pase con una persona de nuestro equipo?',
    notKnownGiveUp: 'Lo siento, eso tampoco lo sé. Te paso con una persona de nuestro equipo, que te responderá aquí.',
    notKnownMidDialogue: 'Lo siento, no sé la respuesta a eso.',
    sorryToHear: 'Siento mucho lo ocurrido. Te paso con una persona de nuestro equipo, que te responderá aquí en breve.',
    sorryToHearOnCall: 'Siento mucho lo ocurrido. Te paso ahora con una persona de nuestro equipo.',
    gladToHear: '¡Muchas gracias, qué alegría leerlo! ¿Hay algo más en lo que pueda ayudarte?',
    howCanIHelp: '¿En qué te puedo ayudar?',
    welcome: (name) => `¡Gracias por tu mensaje! Estás hablando con ${name}.`,
    willGetBack: 'Lo hemos recibido y te responderemos pronto.',
    canHelpWith: (offers) => `Puedo ${offers}. ¿En qué te puedo ayudar?`,
    offers: { faq_responder: 'responder tus preguntas', lead_capture: 'pasar tus datos a nuestro equipo', appointment_booking: 'reservarte una cita' },
    or: 'o',
  },
  pt: {
    toHuman: 'Claro. Vou passar você para uma pessoa da nossa equipe, que responderá aqui em breve.',
    toHumanOnCall: 'Claro. Vou transferir sua ligação agora para uma pessoa da nossa equipe.',
    declinedHuman: 'Tudo bem. Posso ajudar com mais alguma coisa?',
    youreWelcome: 'De nada! Posso ajudar com mais alguma coisa?',
    anythingElse: 'Posso ajudar com mais alguma coisa?',
    notKnown: 'Desculpe, não sei a resposta para isso. Quer que eu chame uma pessoa da nossa equipe?',
    notKnownGiveUp: 'Desculpe, isso eu também não sei. Vou passar você para uma pessoa da nossa equipe, que responderá aqui.',
    notKnownMidDialogue: 'Desculpe, não sei a resposta para isso.',
    sorryToHear: 'Lamento muito o que aconteceu. Vou passar você para uma pessoa da nossa equipe, que responderá aqui em breve.',
    sorryToHearOnCall: 'Lamento muito o que aconteceu. Vou transferir sua ligação agora para uma pessoa da nossa equipe.',
    gladToHear: 'Muito obrigado, que bom saber! Posso ajudar com mais alguma coisa?',
    howCanIHelp: 'Como posso ajudar?',
    welcome: (name) => `Obrigado pela sua mensagem! Você está falando com ${name}.`,
    willGetBack: 'Recebemos e vamos responder em breve.',
    canHelpWith: (offers) => `Posso ${offers}. Como posso ajudar?`,
    offers: { faq_responder: 'responder às suas perguntas', lead_capture: 'passar seus dados para a nossa equipe', appointment_booking: 'marcar um horário para você' },
    or: 'ou',
  },
  fr: {
    toHuman: "Bien sûr. Je vous passe un membre de notre équipe, qui vous répondra ici très vite.",
    toHumanOnCall: 'Bien sûr. Je vous mets en relation avec un membre de notre équipe.',
    declinedHuman: "Pas de souci. Puis-je vous aider pour autre chose ?",
    youreWelcome: 'Avec plaisir ! Puis-je vous aider pour autre chose ?',
    anythingElse: 'Puis-je vous aider pour autre chose ?',
    notKnown: "Désolé, je ne connais pas la réponse. Voulez-vous que je vous mette en relation avec une personne de notre équipe ?",
    notKnownGiveUp: "Désolé, je ne le sais pas non plus. Je vous passe un membre de notre équipe, qui vous répondra ici.",
    notKnownMidDialogue: 'Désolé, je ne connais pas la réponse.',
    sorryToHear: "Je suis vraiment désolé. Je vous passe un membre de notre équipe, qui vous répondra ici très vite.",
    sorryToHearOnCall: 'Je suis vraiment désolé. Je vous mets en relation avec un membre de notre équipe.',
    gladToHear: 'Merci beaucoup, ça fait plaisir ! Puis-je vous aider pour autre chose ?',
    howCanIHelp: 'Comment puis-je vous aider ?',
    welcome: (name) => `Merci pour votre message ! Vous discutez avec ${name}.`,
    willGetBack: 'Nous l’avons bien reçu et vous répondrons rapidement.',
    canHelpWith: (offers) => `Je peux ${offers}. Comment puis-je vous aider ?`,
    offers: { faq_responder: 'répondre à vos questions', lead_capture: 'transmettre vos coordonnées à notre équipe', appointment_booking: 'vous prendre un rendez-vous' },
    or: 'ou',
  },
  de: {
    toHuman: 'Natürlich. Ich verbinde Sie mit einem Mitglied unseres Teams, das Ihnen hier gleich antwortet.',
    toHumanOnCall: 'Natürlich. Ich verbinde Sie jetzt mit einem Mitglied unseres Teams.',
    declinedHuman: 'Kein Problem. Kann ich Ihnen sonst noch helfen?',
    youreWelcome: 'Gern geschehen! Kann ich Ihnen sonst noch helfen?',
    anythingElse: 'Kann ich Ihnen sonst noch helfen?',
    notKnown: 'Das weiß ich leider nicht. Möchten Sie, dass ich Sie mit einer Person aus unserem Team verbinde?',
    notKnownGiveUp: 'Das weiß ich leider auch nicht. Ich verbinde Sie mit einem Mitglied unseres Teams, das Ihnen hier antwortet.',
    notKnownMidDialogue: 'Das weiß ich leider nicht.',
    sorryToHear: 'Das tut mir wirklich leid. Ich verbinde Sie mit einem Mitglied unseres Teams, das Ihnen hier gleich antwortet.',
    sorryToHearOnCall: 'Das tut mir wirklich leid. Ich verbinde Sie jetzt mit einem Mitglied unseres Teams.',
    gladToHear: 'Vielen Dank, das freut uns sehr! Kann ich Ihnen sonst noch helfen?',
    howCanIHelp: 'Wie kann ich Ihnen helfen?',
    welcome: (name) => `Danke für Ihre Nachricht! Sie schreiben mit ${name}.`,
    willGetBack: 'Wir haben sie erhalten und melden uns bald.',
    canHelpWith: (offers) => `Ich kann ${offers}. Wie kann ich Ihnen helfen?`,
    offers: { faq_responder: 'Ihre Fragen beantworten', lead_capture: 'Ihre Kontaktdaten an unser Team weitergeben', appointment_booking: 'einen Termin für Sie buchen' },
    or: 'oder',
  },
};

// The customer asks for a person instead of the agent, in any of the five languages.
const ASKS_FOR_PERSON = [
  // en
  /\b(human|real person|an? (actual|real|live) (person|agent|human)|some(one|body) real|live (agent|person|chat)|representative|operator|manager|staff member|customer service)\b|\b(speak|talk|chat)\s+(to|with)\s+(some(one|body)|a (person|human|agent|representative)|an? (actual|real) (person|human)|staff|the owner)\b/i,
  // es
  /\b(hablar|habla|comunicarme|comunicar)\s+(con|a)\s+(una persona|alguien|un humano|un agente|un asesor|una asesora|un representante|el encargado|la encargada|personal)\b|\b(persona real|un humano|agente humano|atenci[oó]n al cliente)\b/i,
  // pt
  /\b(falar|fala)\s+com\s+(uma pessoa|algu[eé]m|um humano|um atendente|uma atendente|atendente|um representante|o respons[aá]vel|o gerente)\b|\b(pessoa real|atendimento humano|atendente humano|um humano)\b/i,
  // fr
  /\b(parler|discuter)\s+(à|a|avec)\s+(quelqu['’]un|une personne|un humain|un conseiller|une conseill[eè]re|un agent|un responsable)\b|\b(vraie personne|personne r[ée]elle|un humain|service client)\b/i,
  // de
  /\b(mit|mich mit)\s+(einem|einer)\s+(menschen|mitarbeiter(in)?|person|echten (person|menschen)|berater(in)?)\b|\b(echte[nrm]? (mensch|menschen|person)|kundenservice|kundendienst)\b|\bmensch(en)? sprechen\b/i,
];

/** The customer asks to talk to a person, in English, Spanish, Portuguese, French or German. */
export function asksForPerson(text: string): boolean {
  return ASKS_FOR_PERSON.some((re) => re.test(text));
}

// Greetings, thanks and acknowledgements in the five languages: no question to answer.
export const GREETING_ONLY =
  /^\s*(hi|hello|hey|hiya|yo|good (morning|afternoon|evening)|greetings|hola|buenas( tardes| noches)?|buenos d[ií]as|ol[aá]|oi|bom dia|boa (tarde|noite)|bonjour|bonsoir|salut|coucou|hallo|guten (morgen|tag|abend)|moin|servus|gr[üu][ßs] (gott|dich))\b[\s!.,¡]*(there|a todos|tout le monde|zusammen)?[\s!.,]*$/i;
export const THANKS =
  /^\s*(thanks|thank you|thx|ty|cheers|great,? thanks|perfect,? thanks|gracias|muchas gracias|obrigad[oa]|valeu|merci|merci beaucoup|danke|vielen dank|dankesch[öo]n)\b/i;
export const ACKNOWLEDGED =
  /^\s*(ok|okay|k|cool|great|alright|fine|sure|right|got it|nice|perfect|vale|de acuerdo|perfecto|genial|entendido|certo|beleza|combinado|perfeito|entendi|d'accord|parfait|tr[eè]s bien|compris|alles klar|gut|super|verstanden|prima)[\s!.]*$/i;
