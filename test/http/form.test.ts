import { describe, expect, it } from 'vitest';
import { parseForm } from '../../lib/http/form';
import { withCpuTime } from '../support/cpu-time';

describe('form bodies with bracket nesting', () => {
  it('reads plain and nested keys', () => {
    expect(parseForm('title=Disk+full&meta[incident]=true&user_attributes[name]=Ann')).toEqual({
      title: 'Disk full',
      meta: { incident: 'true' },
      user_attributes: { name: 'Ann' },
    });
  });

  it('collects repeated [] keys into arrays', () => {
    expect(parseForm('destination_team_ids[]=a&destination_team_ids[]=b')).toEqual({ destination_team_ids: ['a', 'b'] });
  });

  it('builds arrays of objects, starting a new object when a key repeats', () => {
    const body = 'x[emails_attributes][][email]=a@x.com&x[emails_attributes][][primary]=true&x[emails_attributes][][email]=b@x.com';
    expect(parseForm(body)).toEqual({ x: { emails_attributes: [{ email: 'a@x.com', primary: 'true' }, { email: 'b@x.com' }] } });
  });

  it('reads indexed arrays', () => {
    expect(parseForm('a[0][email]=one&a[1][email]=two&a[0][primary]=1')).toEqual({
      a: [{ email: 'one', primary: '1' }, { email: 'two' }],
    });
  });

  it('decodes percent-encoding', () => {
    expect(parseForm('q=a%26b%3Dc')).toEqual({ q: 'a&b=c' });
  });
});

describe('hostile form bodies', () => {
  it('drops keys that address a prototype, at every depth, and plants nothing', () => {
    const body = parseForm('__proto__[polluted]=x&constructor[prototype][polluted]=x&a[__proto__][polluted]=x&a[b]=1&c[][constructor]=1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(body).toEqual({ a: { b: '1' } });
    expect(Object.getPrototypeOf(body.a)).toBe(Object.prototype);
  });

  it('refuses a huge array index at once instead of building a sparse array', async () => {
    const { cpuMs } = await withCpuTime(() => {
      expect(() => parseForm('a[4294967294]=1')).toThrow(/array index/);
      expect(() => parseForm('a[0][999999999]=1')).toThrow(/array index/);
    });
    expect(cpuMs).toBeLessThan(1_000);
  });

  it('refuses keys nested past the depth limit', () => {
    expect(() => parseForm(`a${'[b]'.repeat(40)}=1`)).toThrow(/nested/);
  });

  it('keeps indexed arrays dense when indices leave gaps', () => {
    expect(parseForm('a[5]=x&a[2]=y')).toEqual({ a: ['y', 'x'] });
  });
});
