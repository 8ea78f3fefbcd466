// The Studio's client of the service: every call sends the key as `Authorization: Bearer` (never in
// a URL), takes an AbortSignal so a newer preview cancels an older one, and turns any answer that is
// not a success into an ApiError (code, description, the JSON path split off). The task events are
// read with fetch() as a stream (EventSource cannot send the header). Uses fetch only, no DOM nodes.
import type {
  FontList,
  PreviewResult as PreviewAnswer,
  RenderAccepted,
  RenderWarning,
  Task,
  TextFitReport,
  UploadResult,
  VideoRenderAccepted,
  VideoTask,
} from '../../../src/service/answers.js';
import type { DesignDraft, DesignList, DraftSaved, FontFamily, TaskList } from '../../../src/service/shapes.js';
import { apiErrorFrom, networkError, type ApiError } from './api-errors.js';
import type { AccountInfo, DesignDetail, DesignSummary, TaskListItem } from './designs.js';
import type { Overrides, toInterfaceB } from './overrides.js';
import type { RenderRequest } from './render-request.js';
import { RateBudget } from './rate-budget.js';
import { SseParser } from './sse.js';

/** A text's fit in a preview (POST /public/v2/preview's `report`); `page` is the engine's multi-page pdf field, never in a preview. */
export type FitReport = TextFitReport & { page?: number };

/** What a preview or a done render could not draw as meant (a missing character, a font substituted). */
export type { RenderWarning };

export interface PreviewRequest {
  design_id: number;
  format?: 'png' | 'jpg';
  quality?: number;
  /** Interface A's map, or interface B's list (which can also replace a slide's background). */
  objects_overrides?: Overrides | ReturnType<typeof toInterfaceB>;
  scale?: number;
  time?: number;
  /** The editor's unsaved template, previewed in place of the saved version, and the uploads it names. */
  design?: unknown;
  assets?: Record<string, string>;
}

/** POST /public/v2/preview's JSON answer, with the report entries typed as above. */
export type PreviewResult = Omit<PreviewAnswer, 'report'> & { report: FitReport[] };

/** A body of interface A or of interface B: the fields both have, and each one's own as optional. */
type AOrB<A, B, Both extends keyof A & keyof B> = Pick<A, Both> & Partial<Omit<A, Both>> & Partial<Omit<B, Both>>;

/** A task's body as A2 (Task) or B2 (VideoTask) returns it, and as the event stream sends it. */
export type TaskBody = AOrB<Task, VideoTask, 'id' | 'state' | 'error' | 'progress'>;

/** A1's answer (status_url) or B1's (task_url). */
type AcceptedBody = AOrB<RenderAccepted, VideoRenderAccepted, 'task_id'>;

export interface Accepted {
  taskId: number;
  /** The A2 status address, or B2's task_url. */
  statusUrl: string;
}

interface CallOptions {
  method?: string;
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
  accept?: string;
}

/** A family a design can name, and where it comes from (GET /public/v2/fonts `families`). */
export type { FontFamily };

export class Api {
  /** What is left of the plan's requests this minute, from the last answer. */
  readonly budget = new RateBudget();

  constructor(
    private readonly key: () => string | null,
    /** Called on a 401: the key is wrong or was revoked. */
    private readonly onUnauthorized: (e: ApiError) => void = () => {},
    private readonly origin = '',
  ) {}

  private async call(path: string, opts: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    const key = this.key();
    if (key) headers.authorization = `Bearer ${key}`;
    if (opts.accept) headers.accept = opts.accept;
    let body: BodyInit | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) body = opts.form;
    let res: Response;
    try {
      res = await fetch(this.origin + path, { method: opts.method ?? 'GET', headers, body, signal: opts.signal, credentials: 'omit', cache: 'no-store' });
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      throw networkError(e);
    }
    this.budget.note(res.headers.get('x-ratelimit-remaining'), res.headers.get('x-ratelimit-reset'), performance.now());
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON (a proxy's page): the text is the description.
      }
      const err = apiErrorFrom(res.status, parsed, res.headers.get('retry-after'));
      if (res.status === 401) this.onUnauthorized(err);
      throw err;
    }
    return res;
  }

  private async json<T>(path: string, opts: CallOptions = {}): Promise<T> {
    const res = await this.call(path, { accept: 'application/json', ...opts });
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }

  account(signal?: AbortSignal): Promise<AccountInfo> {
    return this.json('/public/v2/account', { signal });
  }

  /** Families designs can name (library, bundled, installed) and, searched, the Google Fonts catalogue's (GET /public/v2/fonts). */
  async fontFamilies(search: string, signal?: AbortSignal): Promise<FontFamily[]> {
    const q = new URLSearchParams({ limit: '50', ...(search ? { search } : {}) });
    return (await this.json<FontList>(`/public/v2/fonts?${q.toString()}`, { signal })).families;
  }

  async designs(signal?: AbortSignal): Promise<DesignSummary[]> {
    return (await this.json<DesignList>('/public/v2/designs', { signal })).designs;
  }

  design(id: number, signal?: AbortSignal): Promise<DesignDetail> {
    return this.json(`/public/v2/designs/${id}`, { signal });
  }

  /** A saved version's template as stored (the latest by default), and its version number. */
  async designTemplate(id: number, signal?: AbortSignal): Promise<{ template: Record<string, unknown>; version: number }> {
    const res = await this.call(`/public/v2/designs/${id}/template`, { accept: 'application/json', signal });
    return { template: (await res.json()) as Record<string, unknown>, version: Number(res.headers.get('x-imprint-design-version')) };
  }

  /** Saves the edited template as the design's next version; 409 version_conflict when base_version is not the latest. */
  saveVersion(id: number, design: unknown, baseVersion: number, assets: Record<string, string>, signal?: AbortSignal): Promise<DesignDetail> {
    return this.json(`/public/v2/designs/${id}/versions`, { method: 'POST', json: { design, base_version: baseVersion, assets }, signal });
  }

  /** Stores the design's one draft (the autosave; never rendered by the API). */
  putDraft(id: number, design: unknown, baseVersion: number, assets: Record<string, string>, signal?: AbortSignal): Promise<DraftSaved> {
    return this.json(`/public/v2/designs/${id}/draft`, { method: 'PUT', json: { design, base_version: baseVersion, assets }, signal });
  }

  draft(id: number, signal?: AbortSignal): Promise<DesignDraft> {
    return this.json(`/public/v2/designs/${id}/draft`, { signal });
  }

  async deleteDraft(id: number, signal?: AbortSignal): Promise<void> {
    await this.call(`/public/v2/designs/${id}/draft`, { method: 'DELETE', signal });
  }

  /** A new design from its JSON (POST /public/v2/designs, application/json): a blank one from a size preset. */
  createDesign(name: string, design: unknown, signal?: AbortSignal, assets?: Record<string, string>): Promise<DesignDetail> {
    return this.json('/public/v2/designs', { method: 'POST', json: { name, design, ...(assets ? { assets } : {}) }, signal });
  }

  renameDesign(id: number, name: string, signal?: AbortSignal): Promise<DesignDetail> {
    return this.json(`/public/v2/designs/${id}`, { method: 'PATCH', json: { name }, signal });
  }

  /** A copy of the design's latest saved version, with its files, under `name`. */
  duplicateDesign(id: number, name: string, signal?: AbortSignal): Promise<DesignDetail> {
    return this.json(`/public/v2/designs/${id}/duplicate`, { method: 'POST', json: { name }, signal });
  }

  async deleteDesign(id: number, signal?: AbortSignal): Promise<void> {
    await this.call(`/public/v2/designs/${id}`, { method: 'DELETE', signal });
  }

  /** A preview with its fit report (Accept: application/json). */
  preview(body: PreviewRequest, signal?: AbortSignal): Promise<PreviewResult> {
    return this.json('/public/v2/preview', { method: 'POST', json: body, signal });
  }

  /** A preview's bytes only (a thumbnail): smaller than the JSON's base64. */
  async previewImage(body: PreviewRequest, signal?: AbortSignal): Promise<Blob> {
    const res = await this.call('/public/v2/preview', { method: 'POST', json: body, signal, accept: 'image/*' });
    return res.blob();
  }

  async tasks(limit = 50, before?: number, signal?: AbortSignal): Promise<TaskListItem[]> {
    const q = new URLSearchParams({ limit: String(limit) });
    if (before !== undefined) q.set('before', String(before));
    return (await this.json<TaskList>(`/public/v2/tasks?${q}`, { signal })).tasks;
  }

  /** Sends a render request as built (interface A or B; the URL is absolute, on this origin). */
  async render(req: RenderRequest, signal?: AbortSignal): Promise<Accepted> {
    const url = new URL(req.url);
    const out = await this.json<AcceptedBody>(url.pathname + url.search, {
      method: req.method,
      json: req.body,
      signal,
    });
    return { taskId: out.task_id, statusUrl: out.status_url ?? out.task_url ?? '' };
  }

  /** A2, the task's status address (at most once per 5 s: the service's polling rule). */
  taskA(id: number, signal?: AbortSignal): Promise<TaskBody> {
    return this.json(`/public/v2/tasks/${id}`, { signal });
  }

  /** B2 with the key as a Bearer header (an addition of the service; v=1.0 stays in the query). */
  taskB(id: number, signal?: AbortSignal): Promise<TaskBody> {
    return this.json(`/api/queue/${id}/?v=1.0`, { signal });
  }

  async upload(file: Blob, signal?: AbortSignal): Promise<string> {
    const form = new FormData();
    form.append('file', file);
    const out = await this.json<Required<Pick<UploadResult, 'url'>>>('/public/v2/upload', { method: 'POST', form, signal });
    return out.url;
  }

  /** Imports a design zip or design .json (POST), or replaces design `replace` with it (PUT). */
  importDesign(zip: Blob, name: string, replace?: number, signal?: AbortSignal): Promise<DesignDetail> {
    const form = new FormData();
    // Fields before the file: a multipart reader sees the name before it streams the zip.
    if (name.trim()) form.append('name', name.trim());
    form.append('file', zip, zip instanceof File ? zip.name : 'design.zip');
    return replace === undefined
      ? this.json('/public/v2/designs', { method: 'POST', form, signal })
      : this.json(`/public/v2/designs/${replace}`, { method: 'PUT', form, signal });
  }

  /**
   * Follows a task through its event stream until it ends (done or error) or `signal` aborts; the
   * body of each `task` event (a change of state) and `progress` event (an mp4's frames moved on)
   * goes to onTask. Resolves with the last body.
   */
  async watchTask(id: number, onTask: (t: TaskBody) => void, signal?: AbortSignal): Promise<TaskBody | undefined> {
    const res = await this.call(`/public/v2/tasks/${id}/events`, { accept: 'text/event-stream', signal });
    if (!res.body) throw networkError(new Error('the event stream has no body'));
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new SseParser();
    let last: TaskBody | undefined;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const e of parser.push(value)) {
          if (e.event !== 'task' && e.event !== 'progress') continue;
          last = JSON.parse(e.data) as TaskBody;
          onTask(last);
        }
        if (last && (last.state === 'done' || last.state === 'error')) break;
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
    return last;
  }
}
