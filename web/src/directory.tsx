// The account's people and teams, loaded once after sign-in and refreshed when a page changes them,
// so every page can show names instead of ids. Small collections: every page of 100 is read.
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { listAll } from './api';
import { currentClaims } from './session';
import type { AccountUser, Team } from './types';

export interface Directory {
  loaded: boolean;
  users: AccountUser[];
  teams: Team[];
  me: AccountUser | null;
  isAdmin: boolean;
  /** Name of an account user (v4 id). */
  personName(accountUserId: string): string;
  /** Name of a `usr_…` (user) or `tem_…` (team) id, as the earlier interface names them. */
  nameOfPrefixed(prefixed: string | null | undefined): string;
  teamName(teamId: string): string;
  reload(): Promise<void>;
}

const DirectoryContext = createContext<Directory | null>(null);

const REFRESH_MS = 60_000;

export function DirectoryProvider({ children }: { children: ComponentChildren }) {
  const [users, setUsers] = useState<AccountUser[]>([]);
  const [teams, setTeams] = useState<Team[]>([]);
  const [loaded, setLoaded] = useState(false);

  const reload = useCallback(async () => {
    const [u, t] = await Promise.all([listAll<AccountUser>('/api/v4/account_users'), listAll<Team>('/api/v4/teams')]);
    setUsers(u);
    setTeams(t);
    setLoaded(true);
  }, []);

  useEffect(() => {
    reload().catch(() => setLoaded(true));
    const timer = setInterval(() => void reload().catch(() => undefined), REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  const value = useMemo<Directory>(() => {
    const byAccountUser = new Map(users.map((u) => [u.id, u]));
    const byUser = new Map(users.map((u) => [u.user.id, u]));
    const byTeam = new Map(teams.map((t) => [t.id, t]));
    const claims = currentClaims();
    const me = claims ? (byAccountUser.get(claims.acu) ?? null) : null;
    const personName = (id: string) => byAccountUser.get(id)?.user.name ?? `Unknown person (${id.slice(-6)})`;
    const teamName = (id: string) => byTeam.get(id)?.name ?? `Unknown team (${id.slice(-6)})`;
    return {
      loaded,
      users,
      teams,
      me,
      isAdmin: Boolean(me?.roles.admin),
      personName,
      teamName,
      nameOfPrefixed(prefixed) {
        if (!prefixed) return '—';
        const [prefix, id] = prefixed.split('_');
        if (prefix === 'usr') return byUser.get(id)?.user.name ?? prefixed;
        if (prefix === 'acu') return byAccountUser.get(id)?.user.name ?? prefixed;
        if (prefix === 'tem') return byTeam.get(id)?.name ?? prefixed;
        return prefixed;
      },
      reload,
    };
  }, [users, teams, loaded, reload]);

  return <DirectoryContext.Provider value={value}>{children}</DirectoryContext.Provider>;
}

export function useDirectory(): Directory {
  const directory = useContext(DirectoryContext);
  if (!directory) throw new Error('useDirectory outside DirectoryProvider');
  return directory;
}
