// Puts the API's validation messages next to the inputs they are about. A message names the field
// at fault first (`name can't be blank`, `user_attributes.emails_attributes[1].email is not a valid
// e-mail address`, `account_user_ids, router_ids or team_ids must name at least one destination`);
// the form's inputs are named with the same paths. A message about a nested field that has no input
// of its own falls back to the nearest enclosing one; a message naming no input is the form's.
// Pure: no DOM, tested from Node.

export interface AssignedErrors {
  byField: Record<string, string[]>;
  general: string[];
}

/** `a.b[2].c` → [`a.b[2].c`, `a.b[2]`, `a.b`, `a`]. */
export function enclosingPaths(path: string): string[] {
  const paths = [path];
  let current = path;
  for (;;) {
    const cut = Math.max(current.lastIndexOf('.'), current.lastIndexOf('['));
    if (cut <= 0) break;
    current = current.slice(0, cut);
    paths.push(current);
  }
  return paths;
}

/** The field paths a message names at its start: `x, y or z must …` names three. */
export function leadingFields(message: string): string[] {
  const names: string[] = [];
  const pattern = /^([A-Za-z_][\w.[\]]*)(,\s+|\s+or\s+|\s+and\s+)?/;
  let rest = message;
  for (;;) {
    const match = pattern.exec(rest);
    if (!match) break;
    names.push(match[1]);
    if (!match[2]) break;
    rest = rest.slice(match[0].length);
  }
  return names;
}

/**
 * Assigns each message to the first input it names (exactly, or the nearest enclosing path that has
 * an input, or an alias), else to the form. `aliases` maps an API path to an input name, for inputs
 * that stand for a field under another name.
 */
export function assignErrors(messages: string[], fields: Iterable<string>, aliases: Record<string, string> = {}): AssignedErrors {
  const known = new Set(fields);
  const byField: Record<string, string[]> = {};
  const general: string[] = [];
  for (const message of messages) {
    let target: string | null = null;
    for (const name of leadingFields(message)) {
      for (const candidate of enclosingPaths(name)) {
        const input = known.has(candidate) ? candidate : aliases[candidate] && known.has(aliases[candidate]) ? aliases[candidate] : null;
        if (input) {
          target = input;
          break;
        }
      }
      if (target) break;
    }
    if (target) (byField[target] ??= []).push(message);
    else general.push(message);
  }
  return { byField, general };
}
