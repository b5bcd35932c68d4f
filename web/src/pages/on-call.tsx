// Who is on call: for each team, the people on call now on each layer of its schedule and until
// when (GET /api/v4/teams/:id/current_oncall), and who comes next (GET
// /api/v4/schedule/:id/window_events over the coming weeks). Refreshed every minute.
import { api } from '../api';
import { ErrorList, Loading, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { formatDateTime, toApiUtc, viewerTimeZone, zoneOffsetLabel } from '../lib/format';
import { summarizeLayers, type LayerSummary, type OncallEntry } from '../lib/oncall';
import { href } from '../router';
import type { Team } from '../types';

const HORIZON_DAYS = 35;

interface TeamOncall {
  team: Team;
  layers: LayerSummary[];
  error?: unknown;
}

async function loadTeam(team: Team, now: number): Promise<TeamOncall> {
  if (!team.schedule_id) return { team, layers: [] };
  try {
    const horizon = now + HORIZON_DAYS * 86_400_000;
    const [current, upcoming] = await Promise.all([
      api.get<OncallEntry[]>(`/api/v4/teams/${team.id}/current_oncall`),
      api.get<OncallEntry[]>(`/api/v4/schedule/${team.schedule_id}/window_events`, {
        start: toApiUtc(new Date(now)),
        end: toApiUtc(new Date(horizon)),
      }),
    ]);
    return { team, layers: summarizeLayers(current, upcoming, now, horizon) };
  } catch (error) {
    return { team, layers: [], error };
  }
}

export function OnCallPage() {
  const directory = useDirectory();
  const loaded = useLoad(
    async () => {
      const now = Date.now();
      return Promise.all([...directory.teams].sort((a, b) => a.name.localeCompare(b.name)).map((team) => loadTeam(team, now)));
    },
    [directory.teams],
    60_000,
  );
  const people = (ids: string[]) => ids.map((id) => directory.personName(id)).join(', ');
  const zone = viewerTimeZone();

  return (
    <section>
      <PageTitle>On call</PageTitle>
      <p class="hint">
        Times in {zone} ({zoneOffsetLabel(new Date(), zone)}).
      </p>
      {!directory.loaded || (loaded.loading && !loaded.data) ? (
        <Loading what="who is on call" />
      ) : directory.teams.length === 0 ? (
        <p>
          No teams yet. <a href={href('/teams')}>Create a team</a> to give it a schedule.
        </p>
      ) : (
        loaded.data?.map(({ team, layers, error }) => (
          <section key={team.id} class="card" aria-labelledby={`oncall-${team.id}`}>
            <h2 id={`oncall-${team.id}`}>
              <a href={href(`/teams/${team.id}`)}>{team.name}</a>
            </h2>
            {error ? <ErrorList error={error} /> : null}
            {!team.schedule_id ? (
              <p>This team has no schedule.</p>
            ) : layers.length === 0 && !error ? (
              <p>
                Nobody is on call in the next {HORIZON_DAYS} days. <a href={href(`/schedules/${team.schedule_id}`)}>Open the schedule</a> to
                add shifts.
              </p>
            ) : (
              <table class="table">
                <caption class="visually-hidden">On call for {team.name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Layer</th>
                    <th scope="col">On call now</th>
                    <th scope="col">Until</th>
                    <th scope="col">Next</th>
                  </tr>
                </thead>
                <tbody>
                  {layers.map((layer) => (
                    <tr key={layer.layer}>
                      <th scope="row">Layer {layer.layer}</th>
                      <td class="oncall-now">{layer.now.length ? people(layer.now) : 'Nobody'}</td>
                      <td>{layer.now.length === 0 ? '—' : layer.until ? formatDateTime(layer.until) : `More than ${HORIZON_DAYS} days`}</td>
                      <td class="oncall-next">{layer.next ? `${people(layer.next)} from ${formatDateTime(layer.nextFrom)}` : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {team.schedule_id && (
              <p>
                <a href={href(`/schedules/${team.schedule_id}`)}>Schedule of {team.name}</a>
              </p>
            )}
          </section>
        ))
      )}
    </section>
  );
}
