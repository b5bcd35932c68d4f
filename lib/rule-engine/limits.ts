// Bounds on what a router or notification rule may hold. A rule set is written by an account admin
// but evaluated for every alert of the account, so its cost must be bounded whatever is saved.
export const LIMITS = {
  /** Bytes of YAML text (the whole request body is capped at 256 KiB anyway). */
  yamlBytes: 64 * 1024,
  /** Nesting of mappings and lists in the YAML document. */
  depth: 32,
  /** Mappings, lists and scalars after aliases are expanded (a bound on alias "bombs"). */
  nodes: 20_000,
  /** The `yaml` package's own alias expansion guard (uses × aliases inside the anchored node). */
  aliasCount: 100,
  rules: 200,
  actionsPerRule: 20,
  /** Characters of one `$regex` pattern. */
  regexPattern: 512,
  /** Characters of a string value tested by `$regex`; longer values are tested on their start. */
  regexSubject: 64 * 1024,
  /** Characters of one Handlebars template. */
  templateChars: 4096,
  /** Rendered characters kept, per field. */
  rendered: { title: 1024, description: 16 * 1024, urgency: 16, tag: 256, severity: 16, message: 4096 },
  tags: 50,
  receiversPerAction: 50,
  /** Steps of a notification rule's schedule once repeats are unrolled. */
  notifySteps: 64,
  /** Longest duration accepted anywhere (delays, timeouts). */
  durationMs: 31 * 24 * 3_600_000,
  /** Router chain depth (docs/api.md#routers) and the number of routers one alert may visit. */
  chainDepth: 10,
  chainRouters: 50,
} as const;
