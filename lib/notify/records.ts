// The stored notification (api-earlier.md "Notification"): a record of every message sent to a
// person, holding the redacted text only.
export type Channel = 'email' | 'sms' | 'push' | 'voice' | 'slack';

export interface NotificationRecord {
  id: string;
  account_id: string;
  user_id: string | null;
  channel: Channel;
  provider: string;
  template: string;
  to: string;
  from: string;
  direction: 'OUTGOING';
  subject: string;
  message: string;
  status: 'sent';
  sent: number;
  created_at: string;
  updated_at: string;
  version: number;
}
