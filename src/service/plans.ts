// Plans: named presets of an account's limits and video rates. An account keeps its own copy, so
// `imprint admin set-plan` can change one limit of one account without touching the preset.
import { z } from 'zod';
import { validationError } from '../errors.js';
import type { Plan } from '../store/metadata/records.js';

const basicRates = { sd_30: 0.01, sd_60: 0.015, hd_30: 0.02, hd_60: 0.03 };

export const PLANS: Readonly<Record<string, Plan>> = {
  basic: { name: 'basic', requestsPerMinute: 50, concurrency: 1, queueSize: 100, dailyRenders: 1000, dailyDemoRenders: 30, videoRates: basicRates },
  pro: {
    name: 'pro',
    requestsPerMinute: 300,
    concurrency: 4,
    queueSize: 1000,
    dailyRenders: 10_000,
    dailyDemoRenders: 30,
    videoRates: { sd_30: 0.008, sd_60: 0.012, hd_30: 0.016, hd_60: 0.024 },
  },
};

export const DEFAULT_PLAN = 'basic';

/** Interface A's longest video in seconds (the spec's 15 s) when a plan names no other. */
export const DEFAULT_MAX_VIDEO_SECONDS = 15;

/**
 * Interface A's longest video per preset. It is a plan setting, but it lives here rather than in the
 * account's stored copy of the plan: that copy has one column per limit, and a `max_video_seconds`
 * column (a metadata migration, plus a set-plan field) would be what makes it adjustable per account.
 */
const PRESET_MAX_VIDEO_SECONDS: Readonly<Record<string, number>> = { basic: DEFAULT_MAX_VIDEO_SECONDS, pro: DEFAULT_MAX_VIDEO_SECONDS };

/** The longest video (seconds) an account on this plan may render through interface A. */
export function maxVideoSeconds(plan: Pick<Plan, 'name'>): number {
  return Object.hasOwn(PRESET_MAX_VIDEO_SECONDS, plan.name) ? PRESET_MAX_VIDEO_SECONDS[plan.name]! : DEFAULT_MAX_VIDEO_SECONDS;
}

const count = (max: number) => z.int().min(1).max(max);
const rate = z.number().finite().min(0).max(1000);

/** Changes to an account's plan: a preset name and/or single limits (`imprint admin set-plan`). */
export const PlanPatch = z.strictObject({
  plan: z.string().optional(),
  requests_per_minute: count(1_000_000).optional(),
  concurrency: count(64).optional(),
  queue_size: count(1_000_000).optional(),
  daily_renders: count(10_000_000).optional(),
  daily_demo_renders: z.int().min(0).max(10_000_000).optional(),
  rate_sd_30: rate.optional(),
  rate_sd_60: rate.optional(),
  rate_hd_30: rate.optional(),
  rate_hd_60: rate.optional(),
});
export type PlanPatch = z.infer<typeof PlanPatch>;

export function presetPlan(name: string): Plan {
  const plan = Object.hasOwn(PLANS, name) ? PLANS[name] : undefined;
  if (!plan) throw validationError('$.plan', `unknown plan "${name}": use one of ${Object.keys(PLANS).join(', ')}`);
  return { ...plan, videoRates: { ...plan.videoRates } };
}

export function applyPlanPatch(current: Plan, patch: PlanPatch): Plan {
  const base = patch.plan !== undefined ? presetPlan(patch.plan) : current;
  const rates = { ...base.videoRates };
  if (patch.rate_sd_30 !== undefined) rates.sd_30 = patch.rate_sd_30;
  if (patch.rate_sd_60 !== undefined) rates.sd_60 = patch.rate_sd_60;
  if (patch.rate_hd_30 !== undefined) rates.hd_30 = patch.rate_hd_30;
  if (patch.rate_hd_60 !== undefined) rates.hd_60 = patch.rate_hd_60;
  return {
    name: base.name,
    requestsPerMinute: patch.requests_per_minute ?? base.requestsPerMinute,
    concurrency: patch.concurrency ?? base.concurrency,
    queueSize: patch.queue_size ?? base.queueSize,
    dailyRenders: patch.daily_renders ?? base.dailyRenders,
    dailyDemoRenders: patch.daily_demo_renders ?? base.dailyDemoRenders,
    videoRates: rates,
  };
}

/** The plan as JSON for admin output and the HTTP adapters (snake_case, like the rest of the API). */
export function planJson(p: Plan) {
  return {
    name: p.name,
    requests_per_minute: p.requestsPerMinute,
    concurrency: p.concurrency,
    queue_size: p.queueSize,
    daily_renders: p.dailyRenders,
    daily_demo_renders: p.dailyDemoRenders,
    video_rates: p.videoRates,
  };
}
