// The import's report as POST /api/v4/imports answers it (ImportReportV4): people by name in the
// proof's differences, as the CLI prints them.
import type * as z from 'zod';
import type { ImportReport } from './run-import';
import type { ImportReportV4 } from './schemas';

export function importReportToV4(report: ImportReport): z.input<typeof ImportReportV4> {
  const name = (sourceId: string) => report.names[sourceId] ?? sourceId;
  return {
    source: report.source,
    dry_run: report.dryRun,
    proven: report.proven,
    plan: report.plan.map((entry) => ({
      action: entry.action,
      kind: entry.kind,
      source_id: entry.sourceId,
      name: entry.name,
      our_id: entry.ourId,
      ...(entry.detail ? { detail: entry.detail } : {}),
    })),
    unsupported: report.unsupported.map((item) => ({ kind: item.kind, source_id: item.sourceId, name: item.name, reason: item.reason })),
    integrations: report.integrations.map((i) => ({ name: i.name, old_address: i.oldAddress, new_address: i.newAddress })),
    people: Object.entries(report.people).map(([sourceId, accountUserId]) => ({
      source_id: sourceId,
      name: name(sourceId),
      account_user_id: accountUserId,
    })),
    proofs: report.proofs.map((proof) => ({
      schedule_source_id: proof.scheduleSourceId,
      name: proof.name,
      from: proof.from,
      to: proof.to,
      hand_offs: proof.handOffs,
      differences: proof.differences.map((d) => ({ start: d.start, end: d.end, ours: d.ours.map(name), theirs: d.theirs.map(name) })),
    })),
  };
}
