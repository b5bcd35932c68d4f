// A YAML field of a form (a router's or a notification rule's `rules`): a plain textarea beside a
// line-number gutter, so the API's messages ("… at line 3, column 5", "(line 4, column 15)") can be
// found. The lines the messages name are marked in the gutter, and each message has a button that
// puts the cursor at its line and column. No editor library: the console's first load stays small.
// Tab keeps its usual meaning (the next control), so the field never traps the keyboard.
import { useRef, useState } from 'preact/hooks';
import { offsetOf, positionIn, type YamlPosition } from '../lib/yaml-position';
import type { FormState } from './form';

export function YamlField(props: {
  form: FormState;
  name: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string;
  rows?: number;
}) {
  const { form, name, value } = props;
  form.register(name);
  const id = form.inputId(name);
  const errors = form.errorOf(name);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLPreElement>(null);
  const [, setScroll] = useState(0);
  const lineCount = value.split('\n').length;
  const errorLines = new Set(
    (errors ?? [])
      .map(positionIn)
      .filter((p): p is YamlPosition => p !== null)
      .map((p) => p.line),
  );
  const describedBy = [errors ? `${id}-error` : null, props.hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;

  const goTo = (position: YamlPosition) => {
    const area = textarea.current;
    if (!area) return;
    const at = offsetOf(area.value, position);
    area.focus();
    area.setSelectionRange(at, at);
    // Bring the line into view: the textarea scrolls by whole lines of its line height.
    const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 20;
    area.scrollTop = Math.max(0, (position.line - 3) * lineHeight);
    syncGutter();
  };

  const syncGutter = () => {
    if (gutter.current && textarea.current) gutter.current.scrollTop = textarea.current.scrollTop;
    setScroll((n) => n + 1);
  };

  return (
    <div class="field yaml-field">
      <label for={id}>{props.label}</label>
      {props.hint && (
        <p id={`${id}-hint`} class="hint">
          {props.hint}
        </p>
      )}
      <div class="yaml-editor">
        <pre class="yaml-gutter" aria-hidden="true" ref={gutter}>
          {Array.from({ length: lineCount }, (_, i) => (
            <span key={i} class={errorLines.has(i + 1) ? 'yaml-line-error' : undefined}>
              {i + 1}
            </span>
          ))}
        </pre>
        <textarea
          ref={textarea}
          id={id}
          name={name}
          rows={props.rows ?? 14}
          value={value}
          spellcheck={false}
          autoCapitalize="off"
          autoComplete="off"
          wrap="off"
          onInput={(e) => props.onInput((e.currentTarget as HTMLTextAreaElement).value)}
          onScroll={syncGutter}
          aria-invalid={errors ? 'true' : undefined}
          aria-describedby={describedBy}
        />
      </div>
      {errors && (
        <div id={`${id}-error`} class="field-error">
          {errors.map((message) => {
            const position = positionIn(message);
            return (
              <p key={message} class="yaml-error">
                {message}
                {position && (
                  <button type="button" class="button button-small error-goto" onClick={() => goTo(position)}>
                    Go to line {position.line}, column {position.column}
                  </button>
                )}
              </p>
            );
          })}
        </div>
      )}
    </div>
  );
}
