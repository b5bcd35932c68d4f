import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http/errors';
import { boolish, intish } from '../../lib/http/fields';
import { parseInput } from '../../lib/http/validate';

const schema = z.object({
  title: z.string().trim().min(1),
  urgency: z.enum(['low', 'high']),
  tags: z.array(z.string()).min(1).optional(),
  count: intish.optional(),
  flag: boolish.optional(),
  nested: z.object({ email: z.string().pipe(z.email()) }).optional(),
});

function messages(input: unknown): string[] {
  try {
    parseInput(schema, input);
  } catch (error) {
    expect((error as HttpError).status).toBe(422);
    return (error as HttpError).messages;
  }
  throw new Error('expected a validation error');
}

describe('validation messages name the field', () => {
  it('reports every blank required field', () => {
    expect(messages({})).toEqual(["title can't be blank", "urgency can't be blank"]);
    expect(messages({ title: '   ', urgency: 'low' })).toEqual(["title can't be blank"]);
  });

  it('lists the allowed values of an enum', () => {
    expect(messages({ title: 'a', urgency: 'medium' })).toEqual(['urgency must be one of: low, high']);
  });

  it('names nested and array fields', () => {
    expect(messages({ title: 'a', urgency: 'low', tags: [] })).toEqual(['tags must have at least 1 entry']);
    expect(messages({ title: 'a', urgency: 'low', nested: { email: 'nope' } })).toEqual(['nested.email is not a valid e-mail address']);
    expect(messages({ title: 'a', urgency: 'low', tags: [3] })).toEqual(['tags[0] must be a string']);
  });

  it('reads booleans and integers from their text forms', () => {
    expect(parseInput(schema, { title: 'a', urgency: 'low', count: '30', flag: '1' })).toMatchObject({ count: 30, flag: true });
    expect(messages({ title: 'a', urgency: 'low', flag: 'maybe' })).toHaveLength(1);
  });

  it('ignores fields it does not know', () => {
    expect(parseInput(schema, { title: 'a', urgency: 'low', id: 'x', status: 'open' })).toEqual({ title: 'a', urgency: 'low' });
  });
});
