// Instants as the representations show them. Datetime inputs are read by
// lib/oncall/datetime-inputs.ts, the one reader every object with a time zone shares.

export function isoOf(instant: number): string {
  return new Date(instant).toISOString();
}

export function unixSeconds(instant: number): number {
  return Math.floor(instant / 1000);
}
