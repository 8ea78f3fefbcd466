// Render from the Studio: the format (mp4 for designs that move), and for a video design's mp4 the
// interface B parameters (fps, size, demo) with its price and the balance; the exact request as JSON
// and as curl (key as $IMPRINT_API_KEY); "Render" sends it and the task's state is followed through
// the event stream (GET /public/v2/tasks/<id>/events, read with fetch), falling back to polling the
// status address every 5 s (the service's polling rule) if the stream is unavailable.
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { useStudio } from '../context.js';
import type { TaskBody } from '../lib/api.js';
import { isApiError, networkError, type ApiError } from '../lib/api-errors.js';
import { formatsFor, moneyText, renderPrice, usesInterfaceB, type DesignDetail } from '../lib/designs.js';
import type { Overrides, SlideOverride } from '../lib/overrides.js';
import { progressText } from '../lib/progress.js';
import { curlCommand, demoParameters, renderRequestA, renderRequestB, requestJson, type Format, type Fps, type SizeType } from '../lib/render-request.js';
import { downloadName } from '../lib/results.js';
import { ErrorAlert } from './ErrorAlert.js';
import { ResultLink } from './ResultLink.js';

interface Props {
  design: DesignDetail;
  overrides: Overrides;
  slideOverrides: Record<string, SlideOverride>;
}

const POLL_MS = 5000;

export function RenderPanel({ design, overrides, slideOverrides }: Props) {
  const { api, account, refreshAccount } = useStudio();
  const formats = formatsFor(design);
  const [format, setFormat] = useState<Format>(design.kind === 'video' ? 'mp4' : 'png');
  const [fps, setFps] = useState<Fps>(30);
  const [sizeType, setSizeType] = useState<SizeType>('sd');
  const [demo, setDemo] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [task, setTask] = useState<TaskBody | null>(null);
  const watch = useRef<AbortController | null>(null);
  const ids = { format: useId(), fps: useId(), size: useId(), demo: useId() };

  const b = usesInterfaceB(design, format);
  const params = demoParameters({ fps, sizeType, demo });
  const request = useMemo(
    () =>
      b
        ? renderRequestB(location.origin, design.design_id, params, overrides, slideOverrides)
        : renderRequestA(location.origin, design.design_id, format, overrides),
    [b, design.design_id, format, params.fps, params.sizeType, params.demo, overrides, slideOverrides],
  );
  const price = b ? renderPrice(design, params.sizeType, params.fps, params.demo) : undefined;

  useEffect(() => () => watch.current?.abort(), []);

  const follow = async (id: number, iface: 'A' | 'B', signal: AbortSignal) => {
    const ended = (t: TaskBody | undefined) => t !== undefined && (t.state === 'done' || t.state === 'error');
    let last: TaskBody | undefined;
    try {
      last = await api.watchTask(id, setTask, signal);
    } catch (e) {
      if (signal.aborted) return;
      // No stream (an older service, a proxy that buffers): poll the status address instead.
      void e;
    }
    while (!ended(last) && !signal.aborted) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      if (signal.aborted) return;
      try {
        last = iface === 'A' ? await api.taskA(id, signal) : await api.taskB(id, signal);
        setTask(last);
      } catch (e) {
        if (signal.aborted) return;
        setError(isApiError(e) ? e : networkError(e));
        return;
      }
    }
    if (iface === 'B' && last?.state === 'done') refreshAccount();
  };

  const render = async () => {
    watch.current?.abort();
    const ctl = new AbortController();
    watch.current = ctl;
    setSending(true);
    setError(null);
    setTask(null);
    try {
      const accepted = await api.render(request, ctl.signal);
      setTask({ id: accepted.taskId, state: 'queued' });
      setSending(false);
      await follow(accepted.taskId, request.interface, ctl.signal);
    } catch (e) {
      if (ctl.signal.aborted) return;
      setError(isApiError(e) ? e : networkError(e));
    } finally {
      setSending(false);
    }
  };

  const result = task?.state === 'done' ? (task.result_url ?? task.video_url ?? undefined) : undefined;
  return (
    <section class="panel-box render" aria-label="Render">
      <h2>Render</h2>
      <div class="field">
        <label for={ids.format}>Format</label>
        <select id={ids.format} value={format} onChange={(e) => setFormat(e.currentTarget.value as Format)}>
          {formats.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </div>
      {b ? (
        <div class="video-params">
          <div class="field">
            <label for={ids.fps}>fps</label>
            <select id={ids.fps} value={String(params.fps)} disabled={demo} onChange={(e) => setFps(Number(e.currentTarget.value) as Fps)}>
              <option value="30">30</option>
              <option value="60">60</option>
            </select>
          </div>
          <div class="field">
            <label for={ids.size}>size</label>
            <select id={ids.size} value={params.sizeType} disabled={demo} onChange={(e) => setSizeType(e.currentTarget.value as SizeType)}>
              <option value="sd">sd</option>
              <option value="hd">hd</option>
            </select>
          </div>
          <div class="field check">
            <input id={ids.demo} type="checkbox" checked={demo} onChange={(e) => setDemo(e.currentTarget.checked)} />
            <label for={ids.demo}>Demo</label>
          </div>
          <p class="money">
            <span>
              Price <strong data-testid="price">{price === undefined ? '—' : moneyText(price)}</strong>
            </span>
            <span>
              Balance <strong data-testid="balance">{moneyText(account.balance)}</strong>
            </span>
          </p>
          <p class="muted small">
            {demo
              ? `Demo: free, sd at 30 fps, with a logo; ${account.video.demo_renders_left_today} demo renders left today.`
              : `${account.video.renders_left_today} renders left today. Sent to interface B.`}
          </p>
        </div>
      ) : null}
      <button type="button" class="primary wide" onClick={() => void render()} disabled={sending}>
        {sending ? 'Sending…' : 'Render'}
      </button>
      <ErrorAlert error={error} />
      {task ? (
        <p class="task-line">
          Task {task.id}:{' '}
          <span data-testid="task-state" class={`state ${task.state}`}>
            {task.state}
          </span>
          {result ? (
            <>
              {' '}
              <ResultLink url={result} fileName={downloadName({ name: design.name, id: design.design_id }, task.id, result)}>
                Download result
              </ResultLink>
            </>
          ) : null}
        </p>
      ) : null}
      {task?.state === 'pending' && task.progress ? (
        <div class="task-progress">
          <progress data-testid="task-progress" aria-label="Render progress" max={1} value={task.progress.fraction} />
          <p class="small muted" aria-live="polite">
            {progressText(task.progress)}
          </p>
        </div>
      ) : null}
      {task?.state === 'error' && task.error ? (
        <p class="field-error">
          {task.error.code}: {task.error.description}
        </p>
      ) : null}
      <details class="request" open>
        <summary>Request</summary>
        <p class="small">
          <code data-testid="request-url">
            {request.method} {request.url}
          </code>
        </p>
        <Copyable label="JSON" testId="request-json" text={requestJson(request)} />
        <Copyable label="curl" testId="request-curl" text={curlCommand(request)} />
      </details>
    </section>
  );
}

function Copyable({ label, testId, text }: { label: string; testId: string; text: string }) {
  const [copied, setCopied] = useState(false);
  const pre = useRef<HTMLPreElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard (a page not served over https or from localhost): select the text for Ctrl+C.
      const sel = getSelection();
      if (sel && pre.current) sel.selectAllChildren(pre.current);
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div class="copyable" role="group" aria-label={`Request as ${label}`}>
      <div class="copy-head">
        <span class="small muted">{label}</span>
        <button type="button" class="ghost small" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre ref={pre} data-testid={testId} tabIndex={0}>
        {text}
      </pre>
    </div>
  );
}
