import { afterEach, describe, expect, it } from 'vitest';
import { baseUrlOf } from '../../lib/http/base-url';
import { changeEnvironment } from '../support/dependencies';

process.env.TABLE_NAME ??= 'oncall-unit';

let restoreEnvironment = () => {};
afterEach(() => {
  restoreEnvironment();
  restoreEnvironment = () => {};
});

describe('the base URL shown in inbound addresses', () => {
  it('is the API Gateway domain the client used, over https', () => {
    const headers = { host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-proto': 'https' };
    expect(baseUrlOf({ headers, domainName: 'abc123.execute-api.eu-west-1.amazonaws.com' })).toBe(
      'https://abc123.execute-api.eu-west-1.amazonaws.com',
    );
    // No forwarded protocol: a public host is served over TLS, a loopback one (the local runtime) is not.
    expect(baseUrlOf({ headers: {}, domainName: 'oncall.example.com' })).toBe('https://oncall.example.com');
    expect(baseUrlOf({ headers: { host: '127.0.0.1:3000' } })).toBe('http://127.0.0.1:3000');
    expect(baseUrlOf({ headers: { host: 'localhost:3000' } })).toBe('http://localhost:3000');
  });

  it('follows a proxy, first value of each forwarded header', () => {
    const headers = { host: '10.0.0.5:3000', 'x-forwarded-host': 'oncall.example.com, proxy.internal', 'x-forwarded-proto': 'https,http' };
    expect(baseUrlOf({ headers })).toBe('https://oncall.example.com');
  });

  it('is PUBLIC_BASE_URL when the operator sets one', () => {
    restoreEnvironment = changeEnvironment({ PUBLIC_BASE_URL: 'https://alerts.example.com/' });
    expect(baseUrlOf({ headers: { host: 'abc.execute-api.us-east-1.amazonaws.com' } })).toBe('https://alerts.example.com');
  });
});
