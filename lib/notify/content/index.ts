// Message content (docs/api.md#escalation-and-notifications): pure rendering of subject and message per template and channel,
// validation of an account's notification_templates, SMS fitting, voice text, one-click response
// tokens, SMS reply parsing and storm bundling. No I/O here; the providers and the store use it.
export * from './template-keys';
export { validateNotificationTemplates } from './validate-templates';
export type { TemplatesValidation } from './validate-templates';
export { compileTemplate, TemplateProblem } from './safe-handlebars';
export { renderNotification, VOICE_RESPOND_HINT } from './render';
export type { ContentAlert, RenderedContent, RenderInput, RespondOptions } from './render';
export { fitSms, smsSize, smsText } from './sms';
export type { SmsEncoding, SmsSize } from './sms';
export { spellDigits, voiceText } from './voice';
export { RESPONSE_TOKEN_TTL_MS, responseLink, signResponseToken, verifyResponseToken } from './response-token';
export type { ResponseAction, ResponseClaims, VerifyResult } from './response-token';
export { parseSmsReply, pickReplyTarget, REPLY_HELP } from './sms-reply';
export type { ParsedReply, ReplyAction, ReplyTarget } from './sms-reply';
export { planSends, renderBundle, SEND_WINDOW_MS } from './bundling';
export type { BundledAlert, PendingPage, RateLimitedChannel, SendPlan, SendPlanInput } from './bundling';
export {
  BROADCAST_RESPONSE_ACTION,
  escapeMrkdwn,
  SLACK_ALERT_ACTIONS,
  slackAlertActions,
  slackAlertMessage,
  slackAlertView,
  slackBroadcastMessage,
  slackNotice,
} from './slack-message';
export type { SlackAlertAction, SlackAlertView, SlackBroadcastView, SlackMessage } from './slack-message';
