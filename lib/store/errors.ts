// Errors of the store that a caller may answer as the request's fault (lib/http/gateway-results.ts maps them):
// kept apart from the table primitives, which no file of lib/ but a store file (or keys.ts) may import.

/** DynamoDB's limit on one item. */
export const MAX_ITEM_BYTES = 400 * 1024;

/** A write refused before it was sent: the item would pass the store's 400 KB limit (many long fields,
 * grown over several updates). Callers answer it as a validation error (lib/http/gateway-results.ts). */
export class ItemTooLarge extends Error {
  override name = 'ItemTooLarge';
  constructor(
    readonly bytes: number,
    readonly largest: { attribute: string; bytes: number },
  ) {
    super(
      `the object would take ${Math.ceil(bytes / 1024)} KB, more than the ${MAX_ITEM_BYTES / 1024} KB the store holds; ` +
        `its largest field is ${largest.attribute} (${Math.ceil(largest.bytes / 1024)} KB)`,
    );
  }
}
