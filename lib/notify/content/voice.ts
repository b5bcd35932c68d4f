// Text for a voice call, read by text-to-speech: no links, no symbols read out one by one, and
// the alert's tiny id spelled digit by digit ("alert number 4 2") so it is heard the way it is typed.

const MAX_VOICE = 3_000;

export function spellDigits(value: number | string): string {
  return String(value).split('').join(' ');
}

export function voiceText(text: string): string {
  return text
    .replace(/\bhttps?:\/\/\S+/gi, ' ')
    .replace(/\bwww\.\S+/gi, ' ')
    .replace(/#\s*(\d+)/g, (_, digits: string) => `number ${spellDigits(digits)}`)
    .replace(/[<>{}[\]|\\^~*_`=#]/g, ' ')
    .replace(/&/g, ' and ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_VOICE);
}
