// The starting templates of GET /router/default-template/:type (docs/api.md#routers): YAML texts of our own
// that POST /router accepts as they are (a test parses them with the same parser). The router
// template assigns no receiver by itself, so it is valid in any account: its catch-all rule keeps the
// router's default receiver.
export const DEFAULT_ROUTER_TEMPLATE = `---
rules:
  # Rules are tried top-down; the first whose match holds runs its actions.
  # Low-urgency alerts at night (UTC) are suppressed.
  - match:
      alert.urgency: low
      $timeBetween:
        timezone: "Etc/UTC"
        timeformat: "hh:mm a"
        starttime: "10:00 pm"
        endtime: "06:00 am"
    actions:
      - type: ignore
  # Critical alerts are flagged as incidents.
  - match:
      alert.urgency: critical
    actions:
      - type: incident
        severity: SEV-2
        message: "{{alert.title}}"
  # Everything else goes to the router's default receiver.
  # To send alerts elsewhere, add an action such as:
  #   - type: assign
  #     receiver: tem_<team id>
  - match:
      always: true
    actions:
      - type: setval
        map:
          tags:
            - routed
`;

export const DEFAULT_NOTIFICATION_TEMPLATE = `---
rules:
  # High and critical alerts: push and SMS, a call a minute later, the whole cycle twice.
  - match:
      alert.urgency:
        $in: ["high", "critical"]
    actions:
      - type: notify
        channels: [push, sms]
        timeout: 1m
      - type: notify
        channels: [voice]
        timeout: 2m
      - type: repeat
        times: 1
  # Everything else: push and e-mail.
  - match:
      always: true
    actions:
      - type: notify
        channels: [push, email]
        timeout: 5m
`;

export const DEFAULT_TEMPLATES = { router: DEFAULT_ROUTER_TEMPLATE, notification: DEFAULT_NOTIFICATION_TEMPLATE } as const;
