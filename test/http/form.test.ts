import { describe, expect, it } from 'vitest';
import { parseForm } from '../../lib/http/form';

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
