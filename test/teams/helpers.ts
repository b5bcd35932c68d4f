// Shared arrangements for the teams / schedules / events API tests.
import { expect } from 'vitest';
import { createMember, type ApiClient } from '../support/api-client';

export interface Person {
  id: string;
  userId: string;
  email: string;
  client: ApiClient;
}

/** Account users (non-admins) with a client each. */
export async function people(admin: ApiClient, count: number, prefix = 'Person'): Promise<Person[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const { accountUser, client } = await createMember(admin, { name: `${prefix} ${i + 1}` });
      return {
        id: accountUser.id as string,
        userId: accountUser.user_id as string,
        email: accountUser.user.emails[0].email as string,
        client,
      };
    }),
  );
}

export async function createTeam(admin: ApiClient, body: Record<string, unknown>) {
  const res = await admin.post('/api/v4/teams', body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function createSchedule(admin: ApiClient, name = 'Rota') {
  const res = await admin.post('/api/v4/schedules', { name });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function createEvent(client: ApiClient, body: Record<string, unknown>) {
  const res = await client.post('/api/v4/events', body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** window_events of a schedule, reduced to "start–end layer attendees" lines for readable asserts. */
export async function windowLines(client: ApiClient, scheduleId: string, start: string, end: string): Promise<string[]> {
  const res = await client.get(
    `/api/v4/schedule/${scheduleId}/window_events?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`,
  );
  expect(res.status, res.text).toBe(200);
  return (res.body as any[]).map(line);
}

export function line(entry: any): string {
  return `${entry.start_time}–${entry.end_time} L${entry.layer} ${entry.attendees.map((a: any) => a.attendee_id).join('+')}`;
}

export function errorMessages(res: { body: any }): string[] {
  return (res.body?.errors ?? []).map((e: { message: string }) => e.message);
}
