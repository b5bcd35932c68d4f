// Form fields that show the API's validation messages next to the input at fault. Each field
// registers its name (the API's path of the value, e.g. `user_attributes.emails_attributes[0].email`)
// with its form; a refused submit assigns every message to the field it names (lib/field-errors)
// and moves focus to the first field at fault.
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { api, ApiError, messagesOf } from '../api';
import { assignErrors } from '../lib/field-errors';

export interface FormState {
  id: string;
  busy: boolean;
  general: string[];
  errorOf(name: string): string[] | undefined;
  register(name: string): void;
  inputId(name: string): string;
  /** Runs the submit; validation and other refusals become field or form messages. */
  submit(action: () => Promise<void>): Promise<boolean>;
  clear(): void;
}

let nextFormId = 1;
const safeId = (name: string) => name.replace(/[^\w-]+/g, '-');

export function useForm(aliases: Record<string, string> = {}): FormState {
  const idRef = useRef(`f${nextFormId++}`);
  const fields = useRef(new Set<string>());
  const [byField, setByField] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const id = idRef.current;
  const inputId = (name: string) => `${id}-${safeId(name)}`;

  return {
    id,
    busy,
    general,
    errorOf: (name) => byField[name],
    register: (name) => void fields.current.add(name),
    inputId,
    clear() {
      setByField({});
      setGeneral([]);
    },
    async submit(action) {
      setBusy(true);
      setByField({});
      setGeneral([]);
      try {
        await action();
        return true;
      } catch (error) {
        const messages = messagesOf(error);
        const fieldMessages = error instanceof ApiError && (error.status === 422 || error.status === 400);
        const assigned = fieldMessages ? assignErrors(messages, fields.current, aliases) : { byField: {}, general: messages };
        setByField(assigned.byField);
        setGeneral(assigned.general);
        const first = [...fields.current].find((name) => assigned.byField[name]);
        // After the messages render: focus the first field at fault, else the form's message.
        setTimeout(() => {
          const target =
            (first &&
              (document.getElementById(inputId(first)) ??
                document.querySelector<HTMLElement>(`[aria-invalid="true"] input, input[aria-invalid="true"]`))) ||
            document.getElementById(`${id}-errors`);
          target?.focus();
        });
        return false;
      } finally {
        setBusy(false);
      }
    },
  };
}

/**
 * A settings form's save: updates `<collection>/<id>` when the object exists, else creates it in the
 * collection and hands the new object to `created` (which opens its page). True when an existing
 * object was saved, so the page shows "Saved."; refusals land on the form's fields.
 */
export async function saveOrCreate<T extends { id: string }>(
  form: FormState,
  options: { collection: string; id?: string; body: unknown; created: (object: T) => void | Promise<void> },
): Promise<boolean> {
  const ok = await form.submit(async () => {
    if (options.id) await api.put(`${options.collection}/${options.id}`, options.body);
    else await options.created(await api.post<T>(options.collection, options.body));
  });
  return ok && options.id !== undefined;
}

export function Form(props: {
  form: FormState;
  label: string;
  onSubmit: () => Promise<unknown> | void;
  children: ComponentChildren;
  class?: string;
}) {
  const { form } = props;
  return (
    <form
      class={props.class ?? 'form'}
      aria-label={props.label}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void props.onSubmit();
      }}
    >
      <FormErrors form={form} />
      {props.children}
    </form>
  );
}

export function FormErrors({ form }: { form: FormState }) {
  if (form.general.length === 0) return null;
  return (
    <div id={`${form.id}-errors`} class="notice notice-error" role="alert" tabIndex={-1}>
      {form.general.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

function describedBy(form: FormState, name: string, hint?: string): string | undefined {
  const ids = [form.errorOf(name) ? `${form.inputId(name)}-error` : null, hint ? `${form.inputId(name)}-hint` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

function FieldMessages({ form, name, hint }: { form: FormState; name: string; hint?: string }) {
  const errors = form.errorOf(name);
  return (
    <>
      {hint && (
        <p id={`${form.inputId(name)}-hint`} class="hint">
          {hint}
        </p>
      )}
      {errors && (
        <p id={`${form.inputId(name)}-error`} class="field-error">
          {errors.join(' ')}
        </p>
      )}
    </>
  );
}

interface InputProps {
  type?: 'text' | 'email' | 'password' | 'search' | 'tel' | 'number' | 'datetime-local' | 'url';
  autoComplete?: string;
  required?: boolean;
  placeholder?: string;
  min?: number;
  disabled?: boolean;
  class?: string;
}

export function TextField(
  props: {
    form: FormState;
    name: string;
    label: string;
    value: string;
    onInput: (value: string) => void;
    hint?: string;
  } & InputProps,
) {
  const { form, name, label, value, onInput, hint, class: className, ...rest } = props;
  form.register(name);
  const invalid = Boolean(form.errorOf(name));
  return (
    <div class={`field ${className ?? ''}`}>
      <label for={form.inputId(name)}>{label}</label>
      <input
        {...rest}
        type={(rest.type ?? 'text') as 'text'}
        id={form.inputId(name)}
        name={name}
        value={value}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={describedBy(form, name, hint)}
      />
      <FieldMessages form={form} name={name} hint={hint} />
    </div>
  );
}

export function TextArea(props: {
  form: FormState;
  name: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  rows?: number;
  hint?: string;
}) {
  const { form, name } = props;
  form.register(name);
  return (
    <div class="field">
      <label for={form.inputId(name)}>{props.label}</label>
      <textarea
        id={form.inputId(name)}
        name={name}
        rows={props.rows ?? 3}
        value={props.value}
        onInput={(e) => props.onInput((e.currentTarget as HTMLTextAreaElement).value)}
        aria-invalid={form.errorOf(name) ? 'true' : undefined}
        aria-describedby={describedBy(form, name, props.hint)}
      />
      <FieldMessages form={form} name={name} hint={props.hint} />
    </div>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField(props: {
  form: FormState;
  name: string;
  label: string;
  value: string;
  options: Option[];
  onChange: (value: string) => void;
  placeholder?: string;
  hint?: string;
}) {
  const { form, name } = props;
  form.register(name);
  return (
    <div class="field">
      <label for={form.inputId(name)}>{props.label}</label>
      <select
        id={form.inputId(name)}
        name={name}
        value={props.value}
        onChange={(e) => props.onChange((e.currentTarget as HTMLSelectElement).value)}
        aria-invalid={form.errorOf(name) ? 'true' : undefined}
        aria-describedby={describedBy(form, name, props.hint)}
      >
        {props.placeholder !== undefined && <option value="">{props.placeholder}</option>}
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldMessages form={form} name={name} hint={props.hint} />
    </div>
  );
}

export function CheckboxField(props: {
  form: FormState;
  name: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { form, name } = props;
  form.register(name);
  return (
    <div class="field field-check">
      <input
        type="checkbox"
        id={form.inputId(name)}
        name={name}
        checked={props.checked}
        onChange={(e) => props.onChange((e.currentTarget as HTMLInputElement).checked)}
        aria-invalid={form.errorOf(name) ? 'true' : undefined}
        aria-describedby={describedBy(form, name)}
      />
      <label for={form.inputId(name)}>{props.label}</label>
      <FieldMessages form={form} name={name} />
    </div>
  );
}

/** Several choices of one field (`member_account_user_ids`): a fieldset of checkboxes. The
 * fieldset is the field's target: its first checkbox takes focus when the field is at fault. */
export function CheckboxGroup(props: {
  form: FormState;
  name: string;
  legend: string;
  options: Option[];
  values: string[];
  onChange: (values: string[]) => void;
  hint?: string;
}) {
  const { form, name } = props;
  form.register(name);
  const errorId = `${form.inputId(name)}-error`;
  return (
    <fieldset
      class="field checkbox-group"
      aria-describedby={describedBy(form, name, props.hint)}
      aria-invalid={form.errorOf(name) ? 'true' : undefined}
    >
      <legend>{props.legend}</legend>
      {props.options.length === 0 && <p class="hint">None to choose from yet.</p>}
      {props.options.map((option, i) => {
        const id = i === 0 ? form.inputId(name) : `${form.inputId(name)}-${i}`;
        return (
          <div class="field-check" key={option.value}>
            <input
              type="checkbox"
              id={id}
              checked={props.values.includes(option.value)}
              aria-describedby={form.errorOf(name) ? errorId : undefined}
              onChange={(e) => {
                const checked = (e.currentTarget as HTMLInputElement).checked;
                props.onChange(checked ? [...props.values, option.value] : props.values.filter((v) => v !== option.value));
              }}
            />
            <label for={id}>{option.label}</label>
          </div>
        );
      })}
      <FieldMessages form={form} name={name} hint={props.hint} />
    </fieldset>
  );
}

export function SubmitButton({ form, label, busyLabel }: { form: FormState; label: string; busyLabel?: string }) {
  return (
    <button type="submit" class="button button-primary" disabled={form.busy} aria-disabled={form.busy ? 'true' : undefined}>
      {form.busy ? (busyLabel ?? label) : label}
    </button>
  );
}
