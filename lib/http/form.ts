// Form-encoded request bodies (docs/api.md#requests): the bracket-nesting parser of lib/encoding/form.ts,
// whose limit errors are validation errors here (422 on v4, 400 on the earlier interface).
import { FormEncodingError, parseBracketForm } from '../encoding/form';
import { Invalid } from './errors';

export function parseForm(text: string): Record<string, unknown> {
  try {
    return parseBracketForm(text);
  } catch (error) {
    if (error instanceof FormEncodingError) throw new Invalid(error.message);
    throw error;
  }
}
