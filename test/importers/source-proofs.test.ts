// The PagerDuty and Grafana OnCall readers through the shared schedule translation: our engine over
// the translated events must put the same people on call as the source's own rendering (the
// stand-ins' final_schedule and final_shifts) at every hand-off of 28 days that cross Berlin's and
// New York's change of clocks. No emulators: the translation and the engine are pure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grafanaOnCallSource } from '../../lib/importers/grafana-oncall/source';
import { pagerDutySource } from '../../lib/importers/pagerduty/source';
import { compareSpans } from '../../lib/importers/proof';
import { eventsOfSpecs, ourSpans } from '../../lib/importers/spec-engine';
import type { ImportSource, Snapshot } from '../../lib/importers/source-model';
import { translateSchedule } from '../../lib/importers/translate-schedule';
import { GO_NOW, grafanaOnCallStack } from './grafana-oncall-fixtures';
import { GrafanaOnCallStandIn } from './grafana-oncall-stand-in';
import { PD_NOW, pagerDutyAccount } from './pagerduty-fixtures';
import { PagerDutyStandIn } from './pagerduty-stand-in';

const DAY = 86_400_000;
let pagerDuty: PagerDutyStandIn;
let grafana: GrafanaOnCallStandIn;
const sources: Record<string, { source: ImportSource; snapshot: Snapshot; from: number }> = {};

beforeAll(async () => {
  pagerDuty = await PagerDutyStandIn.start(pagerDutyAccount());
  grafana = await GrafanaOnCallStandIn.start(grafanaOnCallStack());
  const pd = pagerDutySource({ allowPrivateAddresses: true, apiKey: pagerDuty.apiKey, apiUrl: pagerDuty.url, now: () => PD_NOW });
  const go = grafanaOnCallSource({ allowPrivateAddresses: true, apiKey: grafana.token, apiUrl: grafana.apiUrl, now: () => GO_NOW });
  sources.pagerduty = { source: pd, snapshot: await pd.read(), from: PD_NOW };
  sources['grafana-oncall'] = { source: go, snapshot: await go.read(), from: GO_NOW };
});

afterAll(async () => {
  await pagerDuty.close();
  await grafana.close();
});

describe('the translation puts the same people on call as the source renders', () => {
  it.each([
    ['pagerduty', 'PSPLAT1'],
    ['pagerduty', 'PSPAY02'],
    ['pagerduty', 'PSEMPT3'],
    ['grafana-oncall', 'SSRE001'],
    ['grafana-oncall', 'SDATA02'],
  ])('%s schedule %s over 28 days across the change of clocks', async (name, id) => {
    const { source, snapshot, from } = sources[name];
    const schedule = snapshot.schedules.find((s) => s.sourceId === id)!;
    const to = from + 28 * DAY;
    const theirs = await source.renderedOnCall(id, new Date(from).toISOString(), new Date(to).toISOString());
    const ours = ourSpans(eventsOfSpecs(translateSchedule(schedule, 1, '', { shiftsFrom: from }).events), (attendee) => attendee, from, to);
    if (id !== 'PSEMPT3') expect(theirs.length).toBeGreaterThan(20);
    expect(compareSpans(ours, theirs, from, to).differences).toEqual([]);
  });
});
