// Completion hooks, which the worker calls when a task ends. Interface A's: when a task that asked for a webhook
// ends, the delivery the store queued with it (the outbox) is sent at once by this process, once, with no retry.
// The hook never touches the task; what was sent and how it went is kept with the delivery.
import type { TaskRecord } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import { WebhookDispatcher } from './webhook-outbox.js';

/**
 * Called once per task that reached done or error, after the transaction that ended it (which also
 * queued its webhook in the outbox); interface A sends that webhook from here without waiting for a sweep.
 */
export type CompletionHook = (task: TaskRecord) => Promise<void> | void;

/**
 * `dispatcher`: the process's sender (its sweep sends what crashed processes left). Without one, the
 * hook sends through its own, which has no sweep: fine for tests and embedders that run one process.
 */
export function webhookHook(ctx: ServiceContext, dispatcher: WebhookDispatcher = new WebhookDispatcher(ctx)): CompletionHook {
  return async (task: TaskRecord) => {
    if (!task.webhookUrl) return;
    await dispatcher.deliverTask(task.id);
  };
}
