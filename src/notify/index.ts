/**
 * Built-in notifiers for `onApprovalRequested`: a signed webhook and a command. Every export here is public
 * API (re-exported by `toolgate`).
 */
export { type CommandNotifierOptions, commandNotifier } from "./command.js";
export { notifiersFromSettings, readWebhookSecret } from "./from-settings.js";
export {
  DELIVERY_HEADER,
  MIN_WEBHOOK_SECRET_BYTES,
  SIGNATURE_HEADER,
  signWebhookBody,
  TIMESTAMP_HEADER,
  type VerifyWebhookOptions,
  verifyWebhookSignature,
  type WebhookNotifierOptions,
  type WebhookVerification,
  webhookNotifier,
} from "./webhook.js";
