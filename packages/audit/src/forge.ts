/** Where a commit and a file at a commit are shown on the web, for a repository hosted on a forge we know. */
export interface Forge {
  /** `https://host/owner/name`: never the credentials or port a remote URL may carry. */
  readonly web: string;
  commit(oid: string): string;
  file(oid: string, path: string): string;
}

type Layout = (web: string) => Omit<Forge, "web">;

const encodePath = (file: string): string => file.split("/").map(encodeURIComponent).join("/");

/** How each forge lays out its pages. A Map: a host named `__proto__` or `constructor` is a name, not a member of Object.prototype. */
const FORGES: ReadonlyMap<string, Layout> = new Map<string, Layout>([
  ["github.com", (web) => ({ commit: (oid) => `${web}/commit/${oid}`, file: (oid, file) => `${web}/blob/${oid}/${encodePath(file)}` })],
  ["gitlab.com", (web) => ({ commit: (oid) => `${web}/-/commit/${oid}`, file: (oid, file) => `${web}/-/blob/${oid}/${encodePath(file)}` })],
  ["bitbucket.org", (web) => ({ commit: (oid) => `${web}/commits/${oid}`, file: (oid, file) => `${web}/src/${oid}/${encodePath(file)}` })],
  ["codeberg.org", (web) => ({ commit: (oid) => `${web}/commit/${oid}`, file: (oid, file) => `${web}/src/commit/${oid}/${encodePath(file)}` })],
]);

/** A path segment a forge accepts in an owner, group or repository name. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The forge of a remote URL (`https://github.com/o/r.git`, `git@github.com:o/r.git`,
 * `ssh://git@gitlab.com/group/sub/r.git`), or null when its host is not one we know
 * or its path does not look like a repository's (a malformed `%`-escape included): the
 * remote is whatever `.git/config` says, so nothing in it may stop the audit.
 */
export function forgeOf(remote: string | null): Forge | null {
  if (remote === null) return null;
  let host: string;
  let repoPath: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(remote);
  if (!remote.includes("://") && scp !== null) {
    host = scp[1] ?? "";
    repoPath = scp[2] ?? "";
  } else {
    let url: URL;
    try {
      url = new URL(remote);
    } catch {
      return null;
    }
    if (!["https:", "http:", "ssh:", "git:", "git+ssh:", "ssh+git:"].includes(url.protocol)) return null;
    host = url.hostname;
    try {
      repoPath = decodeURIComponent(url.pathname);
    } catch {
      return null;
    }
  }
  const layout = FORGES.get(host.toLowerCase());
  if (layout === undefined) return null;
  const segments = repoPath.replace(/^\/+|\/+$/g, "").replace(/\.git$/, "").split("/");
  if (segments.length < 2 || !segments.every((segment) => SEGMENT.test(segment))) return null;
  const web = `https://${host.toLowerCase()}/${segments.join("/")}`;
  return { web, ...layout(web) };
}
