// Where in a YAML text the API's messages point ("rules is not valid YAML at line 3, column 5: …",
// "… (line 4, column 15)"), and the offset of that place in the text. Pure: no DOM, tested from Node.

export interface YamlPosition {
  line: number;
  column: number;
}

/** The line and column a message names (`line 3, column 5`), or null. */
export function positionIn(message: string): YamlPosition | null {
  const match = /\bline (\d+), column (\d+)/.exec(message);
  return match ? { line: Number(match[1]), column: Number(match[2]) } : null;
}

/** The offset in `text` of a 1-based line and column, clamped to the text. */
export function offsetOf(text: string, { line, column }: YamlPosition): number {
  const lines = text.split('\n');
  const row = Math.min(Math.max(line, 1), lines.length) - 1;
  let offset = 0;
  for (let i = 0; i < row; i++) offset += lines[i].length + 1;
  return offset + Math.min(Math.max(column - 1, 0), lines[row].length);
}
