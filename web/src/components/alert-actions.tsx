// Acknowledge, Resolve and Reject, each shown only where the v4 transition is allowed (docs/api.md#alert-transitions):
// acknowledge from open|dropped|suppressed, resolve from open|dropped|acknowledged, reject on open
// alerts (it needs an open notification workflow of the caller; the API's 409 says when there is none).
import { useState } from 'preact/hooks';
import { api, messagesOf } from '../api';
import type { AlertStatus } from '../types';

export type AlertAction = 'acknowledge' | 'resolve' | 'reject';

export const ACTION_LABELS: Record<AlertAction, string> = { acknowledge: 'Acknowledge', resolve: 'Resolve', reject: 'Reject' };
export const ACTION_DONE: Record<AlertAction, string> = { acknowledge: 'acknowledged', resolve: 'resolved', reject: 'rejected' };

const ALLOWED: Record<AlertAction, AlertStatus[]> = {
  acknowledge: ['open', 'dropped', 'suppressed'],
  resolve: ['open', 'dropped', 'acknowledged'],
  reject: ['open'],
};

export function allowedActions(status: AlertStatus): AlertAction[] {
  return (Object.keys(ALLOWED) as AlertAction[]).filter((action) => ALLOWED[action].includes(status));
}

export function AlertActions(props: {
  alertId: string;
  status: AlertStatus;
  /** Id of the element naming the alert (the buttons' description). */
  describedBy?: string;
  onDone: (action: AlertAction) => void;
  onError: (messages: string[]) => void;
}) {
  const [busy, setBusy] = useState<AlertAction | null>(null);
  const act = async (action: AlertAction) => {
    setBusy(action);
    try {
      await api.post(`/api/v4/alerts/${encodeURIComponent(props.alertId)}/${action}`);
      props.onDone(action);
    } catch (error) {
      props.onError(messagesOf(error));
    } finally {
      setBusy(null);
    }
  };
  const actions = allowedActions(props.status);
  if (actions.length === 0) return null;
  return (
    <div class="actions">
      {actions.map((action) => (
        <button
          key={action}
          type="button"
          class={`button button-small button-${action}`}
          disabled={busy !== null}
          aria-describedby={props.describedBy}
          onClick={() => void act(action)}
        >
          {ACTION_LABELS[action]}
        </button>
      ))}
    </div>
  );
}
