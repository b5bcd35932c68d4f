// Real zones with every kind of offset change, for the tests that hold the zone engine against luxon:
// northern and southern DST, half-hour and 45-minute offsets, a 30-minute DST, a zone whose standard
// time is its summer time in tzdata (Dublin), changes several times a year (Casablanca), DST abolished
// (Tehran, São Paulo) and a whole day skipped when Samoa crossed the date line (2011-12-30).
export const TRANSITION_ZONES = [
  'Europe/Berlin',
  'Europe/Dublin',
  'America/Los_Angeles',
  'America/St_Johns',
  'America/Santiago',
  'America/Sao_Paulo',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Apia',
  'Africa/Casablanca',
  'Asia/Tehran',
];

export const FROM = Date.UTC(2008, 0, 1);
export const TO = Date.UTC(2032, 0, 1);
