// Replies to a page by SMS: "A" acknowledges, "R" rejects, optionally with the alert's tiny id
// ("A 42", "r42", "ack #42", "42a"). With several alerts pending the id is needed; anything else
// gets a reply that says what would have been understood.

export type ReplyAction = 'acknowledge' | 'reject';

export type ParsedReply = { ok: true; action: ReplyAction; tinyId: number | null } | { ok: false; reply: string };

const ACTIONS: Record<string, ReplyAction> = {
  a: 'acknowledge',
  ack: 'acknowledge',
  acknowledge: 'acknowledge',
  r: 'reject',
  rej: 'reject',
  reject: 'reject',
};
const WORD = '(a|ack|acknowledge|r|rej|reject)';
const ACTION_FIRST = new RegExp(`^${WORD}\\s*#?\\s*(\\d{1,9})?$`);
const ID_FIRST = new RegExp(`^#?(\\d{1,9})\\s*${WORD}$`);

export const REPLY_HELP = 'Reply A<id> to acknowledge or R<id> to reject, e.g. A42.';

export function parseSmsReply(body: string): ParsedReply {
  const text = String(body ?? '')
    .normalize('NFKC')
    .trim()
    .replace(/^['"“‘(\s]+|['"”’).!\s]+$/g, '')
    .toLowerCase();
  let match = ACTION_FIRST.exec(text);
  if (match) return { ok: true, action: ACTIONS[match[1]], tinyId: match[2] ? Number(match[2]) : null };
  match = ID_FIRST.exec(text);
  if (match) return { ok: true, action: ACTIONS[match[2]], tinyId: Number(match[1]) };
  return { ok: false, reply: `Sorry, that reply was not understood. ${REPLY_HELP}` };
}

export interface PendingForReply {
  tinyId: number;
}

export type ReplyTarget<T extends PendingForReply> = { ok: true; alert: T } | { ok: false; reply: string };

/** Which of the person's pending alerts (open workflows) a parsed reply means. */
export function pickReplyTarget<T extends PendingForReply>(reply: { tinyId: number | null }, pending: readonly T[]): ReplyTarget<T> {
  if (reply.tinyId !== null) {
    const alert = pending.find((candidate) => candidate.tinyId === reply.tinyId);
    return alert ? { ok: true, alert } : { ok: false, reply: `No alert #${reply.tinyId} is waiting for you. ${REPLY_HELP}` };
  }
  if (pending.length === 1) return { ok: true, alert: pending[0] };
  if (pending.length === 0) return { ok: false, reply: 'No alert is waiting for your response.' };
  const ids = pending
    .slice(0, 5)
    .map((candidate) => `#${candidate.tinyId}`)
    .join(', ');
  return { ok: false, reply: `Several alerts are waiting (${ids}${pending.length > 5 ? ', …' : ''}). ${REPLY_HELP}` };
}
