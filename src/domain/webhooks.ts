/**
 * How long a webhook event may wait to be delivered before /healthz fails: a pending event older
 * than this means the sender is stuck or its receiver is down. The default of the
 * --health-max-outbox-age-minutes setting.
 */
export const MAX_OUTBOX_AGE_SECONDS = 3600
