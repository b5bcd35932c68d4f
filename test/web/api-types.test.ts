// The console's API types (web/src/api-types.ts) are generated from the OpenAPI document; a route or
// representation changed without regenerating them fails here, naming the command that fixes it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesSource } from '../../web/generate-api-types';

describe("the console's API types", () => {
  it('are what the current OpenAPI document generates (npm run generate:api-types)', async () => {
    const committed = readFileSync(API_TYPES_FILE, 'utf8');
    const generated = await apiTypesSource();
    expect(committed === generated, 'web/src/api-types.ts is stale: run npm run generate:api-types').toBe(true);
    // The check compares real contents: the representations the console reads are in them.
    expect(generated).toMatch(/AlertEarlier: \{/);
    expect(generated).toMatch(/handoffs: \{/);
  });
});
