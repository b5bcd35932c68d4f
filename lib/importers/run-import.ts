// One import, as the admin CLI and the console run it: read the source, apply (or plan), then
// prove every schedule's on-call against the source's own rendering.
import { scheduleOncallEvents } from '../schedules/read-oncall';
import { DAY_MS } from '../oncall/civil-calendar';
import type { Principal } from '../http/principal';
import { applySnapshot, type ImportResult } from './apply';
import { grafanaOnCallSource } from './grafana-oncall/source';
import { opsgenieSource } from './opsgenie/reader';
import { pagerDutySource } from './pagerduty/source';
import { proveSchedule, type ScheduleProof } from './proof';
import { takeImportLease } from './import-lease-store';
import { eventsOfSpecs } from './spec-engine';
import type { ImportSource, SourceName } from './source-model';
import { translateSchedule } from './translate-schedule';

export const PROOF_DAYS = 28;

export interface ImportRequest {
  source: SourceName;
  apiKey: string;
  apiUrl?: string;
  /**
   * Whether the source may be at a private, loopback or link-local address: the operator's CLI may
   * (its machine, its network), the console only with ALLOW_PRIVATE_IMPORT_SOURCES.
   */
  allowPrivateAddresses: boolean;
  dryRun: boolean;
  /** Start of the proof's window (default: now). */
  from?: number;
  baseUrl: string | null;
  /** Who runs it, as another run's 409 names them ("the admin CLI", "an admin in the console"). */
  by?: string;
}

export interface ImportReport extends ImportResult {
  proofs: ScheduleProof[];
  /** True when every schedule's on-call matches the source's. */
  proven: boolean;
  /** Source user id → name, for printing. */
  names: Record<string, string>;
}

/** The readers by source; another source's reader registers here. */
export const SOURCES: Partial<
  Record<SourceName, (options: { apiKey: string; apiUrl?: string; allowPrivateAddresses: boolean }) => ImportSource>
> = {
  opsgenie: (options) => opsgenieSource(options),
  pagerduty: (options) => pagerDutySource(options),
  'grafana-oncall': (options) => {
    if (!options.apiUrl)
      throw new Error(
        "Grafana OnCall's API URL is per stack: pass --api-url (OnCall's settings page shows it, e.g. https://oncall-prod-eu-west-0.grafana.net/oncall)",
      );
    return grafanaOnCallSource({ apiKey: options.apiKey, apiUrl: options.apiUrl, allowPrivateAddresses: options.allowPrivateAddresses });
  },
};

export async function runImport(principal: Principal, request: ImportRequest): Promise<ImportReport> {
  const makeSource = SOURCES[request.source];
  if (!makeSource) throw new Error(`no importer for ${request.source} yet`);
  // A dry run writes nothing, so it may run beside anything.
  const lease = request.dryRun ? null : await takeImportLease(principal.accountId, request.by ?? 'another run');
  try {
    return await importUnderLease(principal, request, makeSource);
  } finally {
    await lease?.release();
  }
}

async function importUnderLease(
  principal: Principal,
  request: ImportRequest,
  makeSource: NonNullable<(typeof SOURCES)[SourceName]>,
): Promise<ImportReport> {
  const source = makeSource({
    apiKey: request.apiKey,
    allowPrivateAddresses: request.allowPrivateAddresses,
    ...(request.apiUrl ? { apiUrl: request.apiUrl } : {}),
  });
  const snapshot = await source.read();
  const from = request.from ?? Date.parse(snapshot.readAt);
  const shiftsFrom = Math.min(from, Date.parse(snapshot.readAt));
  const result = await applySnapshot(principal, snapshot, { dryRun: request.dryRun, baseUrl: request.baseUrl, shiftsFrom });
  const to = from + PROOF_DAYS * DAY_MS;
  const sourceIdOf = new Map(Object.entries(result.people).map(([sourceId, ourId]) => [ourId, sourceId]));
  const proofs: ScheduleProof[] = [];
  for (const schedule of snapshot.schedules) {
    const imported = result.schedules.find((s) => s.sourceId === schedule.sourceId);
    // A dry run wrote nothing: it proves the planned events; a real run proves what is stored.
    const events =
      request.dryRun || !imported?.scheduleId
        ? eventsOfSpecs(translateSchedule(schedule, 1, '', { shiftsFrom }).events)
        : await scheduleOncallEvents(principal.accountId, imported.scheduleId);
    const idOf = request.dryRun || !imported?.scheduleId ? (id: string) => id : (id: string) => sourceIdOf.get(id) ?? `ours:${id}`;
    proofs.push(await proveSchedule(source, schedule, events, idOf, from, to));
  }
  return {
    ...result,
    proofs,
    proven: proofs.every((proof) => proof.differences.length === 0),
    names: Object.fromEntries(snapshot.users.map((user) => [user.sourceId, user.name])),
  };
}
