// The import's report as text: the plan (or what was done), the integrations' old and new
// addresses, what has no equivalent here, and the proof, a difference in red.
import type { ImportReport } from './run-import';

const RED = '\u001b[31m';
const GREEN = '\u001b[32m';
const RESET = '\u001b[0m';

export function formatReport(report: ImportReport, options: { color: boolean }): string {
  const paint = (color: string, text: string) => (options.color ? `${color}${text}${RESET}` : text);
  const name = (sourceId: string) => report.names[sourceId] ?? sourceId;
  const lines: string[] = [];
  lines.push(report.dryRun ? `Plan (dry run: nothing written) — import from ${report.source}` : `Import from ${report.source}`);
  for (const entry of report.plan) {
    const id = entry.ourId ? ` → ${entry.ourId}` : '';
    lines.push(`  ${entry.action.padEnd(6)} ${entry.kind.padEnd(17)} ${entry.name}${id}${entry.detail ? ` (${entry.detail})` : ''}`);
  }
  if (report.integrations.length > 0) {
    lines.push('', 'Integrations: old address → new address');
    for (const integration of report.integrations) {
      lines.push(
        `  ${integration.name}: ${integration.oldAddress ?? '(none given)'} → ${integration.newAddress ?? '(made by the real run)'}`,
      );
    }
  }
  lines.push('', report.unsupported.length > 0 ? 'Not imported, or imported in part:' : 'Everything read has an equivalent here.');
  for (const item of report.unsupported) lines.push(`  ${item.kind} ${item.name} (${item.sourceId}): ${item.reason}`);
  lines.push('', 'On-call proof (who is on call here vs the source, at every hand-off):');
  for (const proof of report.proofs) {
    const verdict = proof.differences.length === 0 ? paint(GREEN, 'same') : paint(RED, `on-call differs (${proof.differences.length})`);
    lines.push(`  ${proof.name}: ${verdict} — ${proof.from} to ${proof.to}, ${proof.handOffs} hand-offs compared`);
    for (const difference of proof.differences) {
      const people = (ids: string[]) => (ids.length > 0 ? ids.map(name).join(', ') : 'nobody');
      lines.push(
        paint(RED, `    ${difference.start} – ${difference.end}: here ${people(difference.ours)}; there ${people(difference.theirs)}`),
      );
    }
  }
  if (!report.proven) lines.push('', paint(RED, 'on-call differs: see above'));
  return lines.join('\n');
}
