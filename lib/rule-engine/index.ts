// The rule engine: pure functions from rule YAML and an alert to decisions (no I/O, no system
// clock). Routers (docs/api.md#notification-rules), notification rules (docs/api.md#escalation-and-notifications), their dry-run explanations, and
// the router chain with its limits. The routing worker and the resources are layers over this.
export type { Clock, ClockInput } from './evaluation-time';
export { readClock } from './evaluation-time';
export { LIMITS } from './limits';
export type { RuleFault, PathSegment } from './faults';
export { formatPath } from './faults';
export type { ParseResult } from './rule-document';
export type { LoadedYaml } from './yaml-document';
// The safe YAML loader, for other YAML settings (automations' settings in phase 2).
export { loadYaml, yamlParser } from './yaml-document';
export type { RoutingContext, RoutingInput } from './context';
export { buildRoutingContext } from './context';
export type { DurationResult } from './durations';
export { parseDuration } from './durations';
export type { ReceiverKind } from './receivers';
export { receiverKind, RECEIVER_PREFIX_LIST } from './receivers';
export type { ConditionReport } from './query';
export { valueAtPath } from './query';
// Handlebars of automation settings (phase 2): the same checks and renderer as setval.
export { checkTemplate, compileTemplate } from './templates';
export { compileFormat, renderFormat, parseTimeOfDay, compileTimeFormat } from './moment-format';
export { isTimeBetween, EvaluationTime } from './time-operators';
export { wallClock, isKnownZone } from './wall-clock';
export type { RouterAction, RouterRule, SetvalMap } from './router-rules';
export { parseRouterRules, routerRulesFor, RouterRuleSet, URGENCIES, INCIDENT_SEVERITIES } from './router-rules';
export type { AlertChanges, PlannedAction, PlannedAssignment, RoutePlan, RouterDefinition, RouterExplanation } from './evaluate-router';
export { evaluateRouter, explainRouter, aggregateKey } from './evaluate-router';
export type { ChainAssignment, ChainHop, ChainOptions, ChainResult, RouterLookup } from './router-chain';
export { followRouterChain } from './router-chain';
export type { Channel, NotificationAction, NotificationRule, ScheduleStep } from './notification-rules';
export { CHANNELS, parseNotificationRules, notificationRulesFor, NotificationRuleSet, unrollSchedule } from './notification-rules';
export type { ChannelPlan, NotificationRuleDefinition, NotificationRuleExplanation, UserChannelDefaults } from './pick-channels';
export { defaultChannels, explainNotificationRule, pickChannels } from './pick-channels';
export { DEFAULT_NOTIFICATION_TEMPLATE, DEFAULT_ROUTER_TEMPLATE, DEFAULT_TEMPLATES } from './default-templates';
