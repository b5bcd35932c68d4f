// SMS length rules: a message in the GSM 03.38 alphabet (GSM-7) fits 160 characters in one segment
// (153 per segment when split), extension characters count twice; anything else goes as UCS-2,
// 70 UTF-16 units in one segment (67 when split). Texts are fitted into as few segments as they
// can be by shortening one part (the alert's title), never the rest.

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[~]|€\f';
const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSize {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 units (UCS-2). */
  units: number;
  segments: number;
}

export function smsSize(text: string): SmsSize {
  let septets = 0;
  for (const char of text) {
    if (BASIC.has(char)) septets += 1;
    else if (EXTENSION.has(char)) septets += 2;
    else {
      const units = text.length;
      return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return { encoding: 'GSM-7', units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
}

// Look-alikes that would force UCS-2 for nothing: smart quotes, dashes, ellipsis, odd spaces.
const LOOK_ALIKES: Record<string, string> = {
  '‘': "'",
  '’': "'",
  '‚': "'",
  '′': "'",
  '`': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '″': '"',
  '–': '-',
  '—': '-',
  '‐': '-',
  '‑': '-',
  '−': '-',
  '…': '...',
  '\u00a0': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '\t': ' ',
};

/** One line, GSM look-alikes replaced, control characters gone, spaces collapsed. */
export function smsText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (LOOK_ALIKES[char] !== undefined) out += LOOK_ALIKES[char];
    else if (char === '\n' || char === '\r') out += ' ';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0x200b && code <= 0x200f) || code === 0xfeff) continue;
    else out += char;
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** The first `count` code points (never half a surrogate pair). */
function prefix(text: string, count: number): string {
  return Array.from(text).slice(0, count).join('');
}

/**
 * Renders `compose(part)` with the longest prefix of `part` that keeps the fewest segments possible:
 * one segment when the rest allows it, else as few as the rest alone needs. A shortened part ends
 * with "..." (GSM-7, so it does not force UCS-2).
 */
export function fitSms(compose: (part: string) => string, part: string): { text: string; size: SmsSize; shortened: boolean } {
  const full = compose(part);
  const fullSize = smsSize(full);
  const floor = Math.max(1, smsSize(compose('')).segments);
  if (fullSize.segments <= floor) return { text: full, size: fullSize, shortened: false };
  const chars = Array.from(part).length;
  const candidate = (count: number) => (count === 0 ? compose('') : compose(`${prefix(part, count).trimEnd()}...`));
  // Fitting is monotone in the prefix length: a longer prefix never takes fewer segments.
  let low = 0;
  let high = chars - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (smsSize(candidate(mid)).segments <= floor) low = mid;
    else high = mid - 1;
  }
  const text = candidate(low);
  return { text, size: smsSize(text), shortened: true };
}
