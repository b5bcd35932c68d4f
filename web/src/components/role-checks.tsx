// An account user's roles as checkboxes (docs/api.md#roles): on a person (the Users page) and as the
// roles single sign-on gives the people it adds.
import { CheckboxField, type FormState } from './form';

export const ROLES = ['admin', 'billing', 'broadcaster', 'communicator'] as const;
export type RoleFlags = Record<(typeof ROLES)[number], boolean>;

/** `field` names the checkboxes (`roles.admin`), so the API's messages land on them. */
export function RoleChecks(props: {
  form: FormState;
  field: string;
  legend: string;
  roles: RoleFlags;
  onChange: (roles: RoleFlags) => void;
}) {
  return (
    <fieldset class="field">
      <legend>{props.legend}</legend>
      {ROLES.map((role) => (
        <CheckboxField
          key={role}
          form={props.form}
          name={`${props.field}.${role}`}
          label={role[0].toUpperCase() + role.slice(1)}
          checked={props.roles[role]}
          onChange={(checked) => props.onChange({ ...props.roles, [role]: checked })}
        />
      ))}
    </fieldset>
  );
}
