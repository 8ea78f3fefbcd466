// Accounts, their plans and balances, and API keys with roles (admin or member).
import { ImprintError, validationError } from '../errors.js';
import { issueToError } from '../format/zod-error.js';
import type { Account, Role } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import { hashApiKey, keyPrefixOf, newApiKey, newWebhookSecret } from './keys.js';
import { applyPlanPatch, DEFAULT_PLAN, PlanPatch, planJson, presetPlan } from './plans.js';

export const MAX_BALANCE = 1_000_000_000;
const ROLES: readonly Role[] = ['admin', 'member'];

function checkName(name: unknown): string {
  if (typeof name !== 'string') throw validationError('$.name', `Expected a string for name but received ${JSON.stringify(name)}`);
  const trimmed = name.trim();
  // Control characters would end up in logs and admin output; names are for people.
  if (trimmed.length < 1 || trimmed.length > 100 || /\p{Cc}/u.test(trimmed)) {
    throw validationError('$.name', 'Expected an account name of 1 to 100 printable characters');
  }
  return trimmed;
}

export function checkAmount(amount: unknown, at = '$.amount'): number {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) throw validationError(at, `Expected a number for amount but received ${JSON.stringify(amount)}`);
  if (amount < 0) throw validationError(at, `a balance cannot be negative (received ${amount}): give 0 or more`);
  if (amount > MAX_BALANCE) throw validationError(at, `Expected at most ${MAX_BALANCE} for amount but received ${amount}`);
  return amount;
}

export function checkId(id: unknown, what: string): number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
    throw validationError(`$.${what}`, `Expected a positive integer for ${what} but received ${JSON.stringify(id)}`);
  return id;
}

export async function createAccount(ctx: ServiceContext, input: { name: unknown; plan?: string; balance?: number }) {
  const name = checkName(input.name);
  const plan = presetPlan(input.plan ?? DEFAULT_PLAN);
  const balance = checkAmount(input.balance ?? 0, '$.balance');
  const webhookSecret = newWebhookSecret();
  const account = await ctx.meta.insertAccount({ name, plan, webhookSecret, balance, now: ctx.clock() });
  const { apiKey } = await createKey(ctx, account.id, 'admin');
  ctx.log.info({ account_id: account.id, plan: plan.name }, 'account created');
  return { account, apiKey, webhookSecret };
}

export async function getAccount(ctx: ServiceContext, id: unknown): Promise<Account> {
  const account = await ctx.meta.getAccount(checkId(id, 'account_id'));
  if (!account)
    throw new ImprintError('account_not_found', '$.account_id', `no account with id ${String(id)}: check the id (imprint admin create-account prints it)`);
  return account;
}

export async function createKey(ctx: ServiceContext, accountId: unknown, role: unknown): Promise<{ apiKey: string; role: Role }> {
  if (!ROLES.includes(role as Role)) throw validationError('$.role', `Expected admin or member for role but received ${JSON.stringify(role)}`);
  const account = await getAccount(ctx, accountId);
  const apiKey = newApiKey();
  await ctx.meta.insertKey({ accountId: account.id, role: role as Role, keyHash: hashApiKey(apiKey), keyPrefix: keyPrefixOf(apiKey), now: ctx.clock() });
  return { apiKey, role: role as Role };
}

/** The account and role of a key, or undefined for an unknown one. */
export async function authenticate(ctx: ServiceContext, apiKey: string): Promise<{ account: Account; role: Role } | undefined> {
  if (typeof apiKey !== 'string' || apiKey.length === 0 || apiKey.length > 200) return undefined;
  return ctx.meta.findKey(hashApiKey(apiKey));
}

export async function setBalance(ctx: ServiceContext, accountId: unknown, amount: unknown): Promise<Account> {
  const value = checkAmount(amount);
  const account = await getAccount(ctx, accountId);
  const updated = await ctx.meta.setBalance(account.id, value);
  ctx.log.info({ account_id: account.id, balance: value }, 'balance set');
  return updated!;
}

/** Tops up (or, with a negative amount, takes from) the balance atomically; it never goes below 0. */
export async function addBalance(ctx: ServiceContext, accountId: unknown, amount: unknown): Promise<Account> {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || Math.abs(amount) > MAX_BALANCE) {
    throw validationError('$.amount', `Expected a number between -${MAX_BALANCE} and ${MAX_BALANCE} for amount but received ${JSON.stringify(amount)}`);
  }
  const account = await getAccount(ctx, accountId);
  const updated = await ctx.meta.addBalance(account.id, amount);
  if (updated === 'negative') throw validationError('$.amount', `the balance is ${account.balance}: it cannot go below 0`);
  ctx.log.info({ account_id: account.id, added: amount }, 'balance changed');
  return updated!;
}

export async function setPlan(ctx: ServiceContext, accountId: unknown, patch: unknown): Promise<Account> {
  const parsed = PlanPatch.safeParse(patch);
  if (!parsed.success) throw issueToError(parsed.error.issues[0]!, patch, { root: '$' });
  const account = await getAccount(ctx, accountId);
  const updated = await ctx.meta.setPlan(account.id, applyPlanPatch(account.plan, parsed.data));
  ctx.log.info({ account_id: account.id, plan: updated!.plan.name }, 'plan changed');
  return updated!;
}

/** An account as admin commands and the adapters show it. */
export function accountJson(a: Account) {
  return {
    account_id: a.id,
    name: a.name,
    balance: a.balance,
    plan: planJson(a.plan),
    webhook_secret: a.webhookSecret,
    created_at: new Date(a.createdAt).toISOString(),
  };
}
