import { describe, expect, it } from 'vitest';
import { TIME_ZONE_NAMES, resolveTimeZone } from '../../lib/oncall/time-zones';

// The list exactly as api-v4.md last documented it.
const DOCUMENTED =
  `International Date Line West, American Samoa, Midway Island, Hawaii, Alaska, Pacific Time (US & Canada), Tijuana, Arizona, Chihuahua, Mazatlan, Mountain Time (US & Canada), Central America, Central Time (US & Canada), Guadalajara, Mexico City, Monterrey, Saskatchewan, Bogota, Eastern Time (US & Canada), Indiana (East), Lima, Quito, Atlantic Time (Canada), Caracas, Georgetown, La Paz, Puerto Rico, Santiago, Newfoundland, Brasilia, Buenos Aires, Greenland, Montevideo, Mid-Atlantic, Azores, Cape Verde Is., Edinburgh, Lisbon, London, Monrovia, UTC, Amsterdam, Belgrade, Berlin, Bern, Bratislava, Brussels, Budapest, Casablanca, Copenhagen, Dublin, Ljubljana, Madrid, Paris, Prague, Rome, Sarajevo, Skopje, Stockholm, Vienna, Warsaw, West Central Africa, Zagreb, Zurich, Athens, Bucharest, Cairo, Harare, Helsinki, Jerusalem, Kaliningrad, Kyiv, Pretoria, Riga, Sofia, Tallinn, Vilnius, Baghdad, Istanbul, Kuwait, Minsk, Moscow, Nairobi, Riyadh, St. Petersburg, Volgograd, Tehran, Abu Dhabi, Baku, Muscat, Samara, Tbilisi, Yerevan, Kabul, Ekaterinburg, Islamabad, Karachi, Tashkent, Chennai, Kolkata, Mumbai, New Delhi, Sri Jayawardenepura, Kathmandu, Almaty, Astana, Dhaka, Urumqi, Rangoon, Bangkok, Hanoi, Jakarta, Krasnoyarsk, Novosibirsk, Beijing, Chongqing, Hong Kong, Irkutsk, Kuala Lumpur, Perth, Singapore, Taipei, Ulaanbaatar, Osaka, Sapporo, Seoul, Tokyo, Yakutsk, Adelaide, Darwin, Brisbane, Canberra, Guam, Hobart, Melbourne, Port Moresby, Sydney, Vladivostok, Magadan, New Caledonia, Solomon Is., Srednekolymsk, Auckland, Fiji, Kamchatka, Marshall Is., Wellington, Chatham Is., Nuku'alofa, Samoa, Tokelau Is.`.split(
    ', ',
  );

function intlAccepts(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

describe('event time zones', () => {
  it('lists every documented friendly name, in the documented order', () => {
    expect(TIME_ZONE_NAMES).toEqual(DOCUMENTED);
  });

  it('resolves every friendly name to a zone Intl accepts', () => {
    const unresolved = TIME_ZONE_NAMES.filter((name) => {
      const zone = resolveTimeZone(name);
      return zone === null || !intlAccepts(zone);
    });

    expect(unresolved).toEqual([]);
  });

  it.each([
    ['Pacific Time (US & Canada)', 'America/Los_Angeles'],
    ['International Date Line West', 'Etc/GMT+12'],
    ['Mid-Atlantic', 'Atlantic/South_Georgia'],
    ['UTC', 'Etc/UTC'],
    ['Edinburgh', 'Europe/London'],
    ['Chennai', 'Asia/Kolkata'],
    ['Kolkata', 'Asia/Kolkata'],
    ['Mumbai', 'Asia/Kolkata'],
    ['New Delhi', 'Asia/Kolkata'],
    ['Berlin', 'Europe/Berlin'],
    ['Bern', 'Europe/Zurich'],
    ['Sydney', 'Australia/Sydney'],
  ])('maps %s to %s as Rails does', (name, zone) => {
    expect(resolveTimeZone(name)).toBe(zone);
  });

  it('maps Kyiv to a Kyiv zone Intl accepts', () => {
    const zone = resolveTimeZone('Kyiv');

    expect(['Europe/Kiev', 'Europe/Kyiv']).toContain(zone);
    expect(intlAccepts(zone!)).toBe(true);
  });

  it('accepts IANA names as they are', () => {
    expect(resolveTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(resolveTimeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
  });

  it('rejects names that are neither friendly nor IANA', () => {
    expect(resolveTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(resolveTimeZone('')).toBeNull();
    expect(resolveTimeZone('Pacific Time')).toBeNull();
  });
});
