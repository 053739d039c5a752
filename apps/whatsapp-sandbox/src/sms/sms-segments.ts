/** GSM 03.38 basic character set and its extension table (each extension character takes two septets). */
const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[~]|€\f';

/**
 * How many SMS segments a body takes, as Twilio counts them (`num_segments`): GSM-7 when every character is in the
 * GSM alphabet (160 septets alone, 153 per part when split), else UCS-2 (70 code units alone, 67 per part).
 */
export function smsSegments(body: string): { encoding: 'GSM-7' | 'UCS-2'; segments: number } {
  let septets = 0;
  let gsm = true;
  for (const ch of body) {
    if (GSM_BASIC.includes(ch)) septets += 1;
    else if (GSM_EXTENSION.includes(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return { encoding: 'GSM-7', segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
  const units = body.length; // UTF-16 code units: what UCS-2 (UTF-16 on handsets) carries
  return { encoding: 'UCS-2', segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}
