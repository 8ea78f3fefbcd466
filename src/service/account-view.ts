// The account as its own administrator sees it over HTTP (GET /public/v2/account): plan, balance,
// rate limit, and interface B's prices per second with what is left of today's render limits.
import type { Account } from '../store/metadata/records.js';
import type { ServiceContext } from './context.js';
import type { AccountInfo } from './shapes.js';
import { VIDEO_FPS, VIDEO_SIZES } from '../output-formats.js';
import { utcDayStart, videoRate } from './videos.js';

/** The account as GET /public/v2/account answers it (AccountInfo of shapes.ts). */
export type AccountView = AccountInfo;

export async function accountView(ctx: ServiceContext, account: Account): Promise<AccountView> {
  const used = await ctx.meta.countDailyRenders(account.id, utcDayStart(ctx.clock()));
  const rates = {} as AccountView['video']['rates'];
  for (const size of VIDEO_SIZES) for (const fps of VIDEO_FPS) rates[`${size}/${fps}`] = videoRate(account.plan, size, fps);
  return {
    account_id: account.id,
    name: account.name,
    plan: account.plan.name,
    balance: account.balance,
    requests_per_minute: account.plan.requestsPerMinute,
    video: {
      rates,
      demo_renders_left_today: Math.max(0, account.plan.dailyDemoRenders - used.demo),
      renders_left_today: Math.max(0, account.plan.dailyRenders - used.paid),
    },
  };
}
