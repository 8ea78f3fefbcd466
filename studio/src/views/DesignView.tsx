// The design view: the object list and the selected object's form on the left, the preview with its
// object overlay in the centre (and the timeline for designs that move), the fit report and the
// render panel on the right. Every change of the overrides, the time or the display size asks
// POST /public/v2/preview again (debounced 100 ms; a newer request aborts the older one; answers are
// cached per overrides + time + scale for the tab, so scrubbing back or a second play loop is free).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Canvas, type CanvasObject } from '../components/Canvas.js';
import { ErrorAlert } from '../components/ErrorAlert.js';
import { FitReport } from '../components/FitReport.js';
import { ObjectForm } from '../components/ObjectForm.js';
import { ObjectList } from '../components/ObjectList.js';
import { RenderPanel } from '../components/RenderPanel.js';
import { Timeline } from '../components/Timeline.js';
import { useStudio } from '../context.js';
import { useElementSize, useLoad } from '../hooks.js';
import type { Api, PreviewResult } from '../lib/api.js';
import { isApiError, networkError, type ApiError } from '../lib/api-errors.js';
import { designType, sizeText, type DesignDetail, type ObjectInfo } from '../lib/designs.js';
import { changedFields, fitScale, renderScale, type Box } from '../lib/geometry.js';
import { stageMargin } from '../lib/overlay.js';
import {
  byObjectName,
  editEntry,
  effectiveValue,
  toInterfaceB,
  withEntry,
  type Entry,
  type Json,
  type Overrides,
  type SlideOverride,
} from '../lib/overrides.js';
import { hasEdits, loadDraft, saveDraft, type Draft } from '../lib/drafts.js';
import { clampTime, formatSeconds, nextFrameTime, slideIndexAt } from '../lib/timeline.js';

const DEBOUNCE_MS = 100;
const PLAY_FPS = 4;
const CACHE_SIZE = 60;
const cache = new Map<string, PreviewResult>();
/**
 * After a 429, no preview is asked for before the time its retry-after names (performance.now() ms):
 * the latest change waits and is sent then, instead of every keystroke meeting another 429.
 */
let blockedUntil = 0;

function cached(key: string): PreviewResult | undefined {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
  }
  return hit;
}

function remember(key: string, r: PreviewResult): void {
  cache.set(key, r);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
}

export function DesignView({ id }: { id: number }) {
  const { api } = useStudio();
  const detail = useLoad((signal) => api.design(id, signal), [id]);
  if (detail.error) {
    return (
      <main class="page">
        <h1>Design {id}</h1>
        <ErrorAlert error={detail.error} />
        <p>
          <a href="#/">Back to the designs</a>
        </p>
      </main>
    );
  }
  if (!detail.data) return <main class="page muted">Loading design {id}…</main>;
  return <Editor design={detail.data} />;
}

/** The template's value of every field, with the box and rotation filled in from ObjectInfo. */
function baseValues(o: ObjectInfo): Record<string, unknown> {
  return { x: o.box.x, y: o.box.y, width: o.box.width, height: o.box.height, rotation: o.rotation, ...o.values };
}

interface Preview {
  result: PreviewResult | null;
  error: ApiError | null;
  busy: boolean;
  /** Round trip of the last answer, ms. */
  ms: number | null;
  /** The key of the request the shown image answers. */
  shownKey: string | null;
  /** Seconds the next preview waits for the plan's rate limit (0: not waiting). */
  pausedFor: number;
}

function usePreview(
  api: Api,
  design: DesignDetail,
  overrides: Overrides,
  slides: Record<string, SlideOverride>,
  time: number | undefined,
  scale: number,
  immediate: boolean,
): Preview {
  const [state, setState] = useState<Preview>({ result: null, error: null, busy: false, ms: null, shownKey: null, pausedFor: 0 });
  const [retry, setRetry] = useState(0);
  const key = JSON.stringify({ d: design.design_id, u: design.updated_at, o: overrides, sl: slides, t: time, s: scale });
  useEffect(() => {
    if (scale <= 0) return;
    const hit = cached(key);
    if (hit) {
      setState({ result: hit, error: null, busy: false, ms: 0, shownKey: key, pausedFor: 0 });
      return;
    }
    const ctl = new AbortController();
    // Near the end of the plan's requests for this minute, previews wait for the next one (the
    // last requests stay for renders and uploads); the latest state is sent then.
    const paced = Math.max(blockedUntil - performance.now(), api.budget.previewDelay(performance.now()));
    const wait = Math.max(immediate ? 0 : DEBOUNCE_MS, paced);
    if (paced > DEBOUNCE_MS) setState((s) => ({ ...s, pausedFor: Math.ceil(paced / 1000) }));
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, busy: true, pausedFor: 0 }));
      const t0 = performance.now();
      const body = {
        design_id: design.design_id,
        // An opaque canvas (a colour background) as jpg: about 7× fewer bytes than png for a photo
        // card, so the answer arrives and decodes sooner; png where the canvas may be transparent.
        ...(design.background ? { format: 'jpg' as const, quality: 90 } : {}),
        scale,
        // A replaced slide background needs interface B's list form (the preview takes both).
        ...(Object.keys(slides).length
          ? { objects_overrides: toInterfaceB(overrides, slides) }
          : Object.keys(overrides).length
            ? { objects_overrides: overrides }
            : {}),
        ...(time !== undefined ? { time } : {}),
      };
      api.preview(body, ctl.signal).then(
        (result) => {
          remember(key, result);
          setState({ result, error: null, busy: false, ms: Math.round(performance.now() - t0), shownKey: key, pausedFor: 0 });
        },
        (e: unknown) => {
          if (ctl.signal.aborted) return;
          const error = isApiError(e) ? e : networkError(e);
          setState((s) => ({ ...s, error, busy: false }));
          // Over the plan's rate: ask again (for the latest state) once the service says it will answer.
          if (error.status === 429) {
            blockedUntil = performance.now() + (error.retryAfter ?? 5) * 1000 + 50;
            setRetry((r) => r + 1);
          }
        },
      );
    }, wait);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [key, retry]);
  return state;
}

function Editor({ design }: { design: DesignDetail }) {
  const { api, account } = useStudio();
  // The edits kept for this tab from an earlier visit (lib/drafts.ts), read once when the design opens.
  const [restored] = useState(() => loadDraft(sessionStorage, account.account_id, design.design_id));
  const [overrides, setOverrides] = useState<Overrides>(() => restored?.overrides ?? {});
  const [slideOverrides, setSlideOverrides] = useState<Record<string, SlideOverride>>(() => restored?.slides ?? {});
  const [selected, setSelected] = useState<string | null>(() =>
    restored?.selected && design.objects.some((o) => o.name === restored.selected) ? restored.selected : null,
  );
  const [resets, setResets] = useState(0);
  const duration = design.duration ?? 0;
  const moving = design.duration !== null && design.duration > 0;
  // A design that moves opens where its still is (its poster time: the text has appeared), or where
  // the user left it in this tab.
  const [time, setTime] = useState(() => clampTime(restored?.time ?? design.poster_time ?? 0, duration));
  const [playing, setPlaying] = useState(false);
  const [kept, setKept] = useState(true);
  const [showRestored, setShowRestored] = useState(() => restored !== null && hasEdits(restored));
  const edited = hasEdits({ overrides, slides: slideOverrides });

  // Every change is kept for the tab at once, so a reload, Back or another view loses nothing. While
  // the note about restored edits is shown, the draft keeps the design version it was made on, so a
  // reload still says "the design has been replaced since" until the person has seen it (OK).
  useEffect(() => {
    setKept(
      saveDraft(sessionStorage, account.account_id, design.design_id, {
        overrides,
        slides: slideOverrides,
        selected,
        time: moving ? time : null,
        designUpdatedAt: showRestored && restored ? restored.designUpdatedAt : design.updated_at,
      }),
    );
  }, [overrides, slideOverrides, selected, time, showRestored]);

  // Closing the tab (or leaving the Studio) ends the tab's storage: with edits, the browser asks first.
  useEffect(() => {
    if (!edited) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    addEventListener('beforeunload', ask);
    return () => removeEventListener('beforeunload', ask);
  }, [edited]);

  const discardAll = (what: string) => {
    if (!confirm(`Discard ${what}? This cannot be undone.`)) return;
    setOverrides({});
    setSlideOverrides({});
    setShowRestored(false);
    setResets((r) => r + 1);
  };
  const [stageRef, stage] = useElementSize<HTMLDivElement>();

  // A margin round the canvas keeps the handles of objects at its edges within reach (narrower on a
  // small stage, so the canvas stays large).
  const margin = 2 * stageMargin(stage.width, stage.height);
  const display = fitScale(design.width, design.height, stage.width - margin, stage.height - margin);
  const scale = stage.width > 0 ? renderScale(display, devicePixelRatio) : 0;
  const preview = usePreview(api, design, overrides, slideOverrides, moving ? time : undefined, scale, playing);

  // Play: the next frame is asked for once the last one is shown, at most PLAY_FPS a second; a
  // rate-limit error stops it.
  const lastFrameAt = useRef(0);
  useEffect(() => {
    if (!playing) return;
    if (preview.error) {
      setPlaying(false);
      return;
    }
    if (preview.busy) return;
    const wait = Math.max(0, 1000 / PLAY_FPS - (performance.now() - lastFrameAt.current));
    const t = setTimeout(() => {
      lastFrameAt.current = performance.now();
      setTime((x) => nextFrameTime(x, duration, PLAY_FPS));
    }, wait);
    return () => clearTimeout(t);
  }, [playing, preview.shownKey, preview.busy, preview.error]);

  const objects = design.objects;
  // Objects may share a name (a role): the first of them gives the form its template values and fields.
  const bases = useMemo(() => {
    const out: Record<string, Record<string, unknown>> = {};
    for (const o of objects) if (!Object.hasOwn(out, o.name)) out[o.name] = baseValues(o);
    return out;
  }, [objects]);
  const shared = (name: string) => objects.filter((o) => o.name === name).length > 1;
  // A video design shows the named objects of the slide on screen at `time`.
  const current = slideIndexAt(design.slides, time);
  const onSlide = current >= 0 ? new Set(design.slides[current]!.objects) : null;
  const selectedObject = objects.find((o) => o.name === selected) ?? null;

  const setField = (name: string, path: string[], value: Json | undefined) =>
    setOverrides((all) => withEntry(all, name, editEntry(bases[name] ?? {}, all[name], path, value)));
  const setBox = (name: string, box: Box) => {
    const before = boxOf(
      objects.find((o) => o.name === name)!,
      overrides[name],
    );
    const changed = changedFields(before, box);
    setOverrides((all) => {
      let entry: Entry | undefined = all[name];
      for (const [k, v] of Object.entries(changed)) entry = editEntry(bases[name] ?? {}, entry, [k], v);
      return withEntry(all, name, entry ?? {});
    });
  };

  const canvasObjects: CanvasObject[] = objects
    .filter((o) => !onSlide || onSlide.has(o.name))
    .map((o, i) => ({
      key: o.path ?? `${i}`,
      name: o.name,
      ...(shared(o.name) ? { shared: true } : {}),
      type: o.type,
      box: boxOf(o, overrides[o.name]),
      rotation: num(effectiveValue(baseValues(o), overrides[o.name], ['rotation'])) ?? 0,
    }));

  // Field errors from the last preview: `$.objects_overrides.<name>.<field…>`.
  const fieldErrors: Record<string, string> = {};
  const err = preview.error;
  // With a slide replaced the preview went in interface B's list form: its paths name list entries.
  const segments = err ? (Object.keys(slideOverrides).length ? byObjectName(err.segments, toInterfaceB(overrides, slideOverrides)) : err.segments) : [];
  if (err && segments[0] === 'objects_overrides' && segments[1] === selected && segments.length > 2) {
    fieldErrors[
      segments
        .slice(2)
        .filter((s): s is string => typeof s === 'string')
        .join('.')
    ] = err.message;
  }
  const errorObject = err && segments[0] === 'objects_overrides' && typeof segments[1] === 'string' ? segments[1] : null;

  const type = designType(design);
  return (
    <main class="editor">
      <aside class="side" aria-label="Sidebar">
        <div class="side-head">
          <h1 title={design.name}>{design.name || `Design ${design.design_id}`}</h1>
          <p class="muted small">
            ID {design.design_id} · {sizeText(design)} · {type}
            {design.duration ? ` · ${formatSeconds(design.duration)}` : ''}
          </p>
          <DraftNotice
            restored={showRestored ? restored : null}
            design={design}
            overrides={overrides}
            kept={kept}
            onDiscard={() => discardAll('the edits kept from earlier')}
            onDismiss={() => setShowRestored(false)}
            onRemove={(names) => {
              if (!confirm(`Remove your edits of ${names.join(', ')}?`)) return;
              setOverrides((all) => names.reduce((acc, n) => withEntry(acc, n, {}), all));
            }}
          />
        </div>
        <h2 class="section">Objects</h2>
        {objects.length ? (
          <ObjectList objects={objects} selected={selected} overridden={(n) => overrides[n] !== undefined} onSelect={setSelected} />
        ) : (
          <p class="muted small">This design has no named objects: nothing can be overridden.</p>
        )}
        {selectedObject ? (
          <ObjectForm
            key={`${selectedObject.name}#${resets}`}
            object={selectedObject}
            sharing={objects.filter((o) => o.name === selectedObject.name)}
            base={bases[selectedObject.name] ?? {}}
            entry={overrides[selectedObject.name]}
            errors={fieldErrors}
            onChange={(path, v) => setField(selectedObject.name, path, v)}
            onReset={() => {
              if (!confirm(`Discard your edits of ${selectedObject.name}?`)) return;
              setOverrides((all) => withEntry(all, selectedObject.name, {}));
              setResets((r) => r + 1);
            }}
          />
        ) : objects.length ? (
          <p class="muted small pad">Select an object (here or on the canvas) to see its fields.</p>
        ) : null}
      </aside>

      <section class="centre" aria-label="Canvas">
        <div class="stage-bar">
          <span class="muted small">
            {scale > 0 ? `${Math.round(display * 100)} %` : ''}
            {preview.ms !== null ? <span data-testid="preview-time"> · preview {preview.ms} ms</span> : ''}
            {preview.busy ? ' · rendering…' : ''}
            {preview.pausedFor > 0 ? <span role="status"> · preview paused by the plan's rate limit: it resumes in {preview.pausedFor} s</span> : ''}
          </span>
          {edited ? (
            <button type="button" class="ghost small" onClick={() => discardAll('every edit of this design')}>
              Reset all
            </button>
          ) : null}
        </div>
        <div class="stage" ref={stageRef}>
          {scale > 0 ? (
            <Canvas
              width={design.width}
              height={design.height}
              scale={display}
              image={preview.result?.image ?? null}
              imageAlt={`Preview of ${design.name || `design ${design.design_id}`}`}
              busy={preview.busy}
              objects={canvasObjects}
              selected={selected}
              onSelect={setSelected}
              onBox={setBox}
            />
          ) : null}
        </div>
        {err ? (
          <div class="stage-error">
            <ErrorAlert error={err} prefix="Preview" />
            {errorObject && errorObject !== selected && objects.some((o) => o.name === errorObject) ? (
              <button type="button" class="ghost small" onClick={() => setSelected(errorObject)}>
                Show {errorObject}
              </button>
            ) : null}
          </div>
        ) : null}
        {moving ? (
          <Timeline
            duration={duration}
            time={time}
            playing={playing}
            fps={PLAY_FPS}
            onTime={(t) => setTime(clampTime(t, duration))}
            onPlay={(p) => {
              lastFrameAt.current = performance.now();
              setPlaying(p);
            }}
            slides={design.slides}
            slideOverrides={slideOverrides}
            onSlide={(name, v) =>
              setSlideOverrides((all) => {
                const out = { ...all };
                if (v) out[name] = v;
                else delete out[name];
                return out;
              })
            }
          />
        ) : null}
      </section>

      <aside class="panel" aria-label="Fit and render">
        <FitReport
          report={preview.result?.report ?? []}
          warnings={preview.result?.warnings ?? []}
          selected={selected}
          selectedType={selectedObject?.type ?? null}
          {...(moving ? { onTime: (t: number) => setTime(clampTime(t, duration)) } : {})}
        />
        <RenderPanel design={design} overrides={overrides} slideOverrides={slideOverrides} />
      </aside>
    </main>
  );
}

/**
 * Says what happened to the user's edits: brought back from earlier in this tab (and whether the
 * design changed since, or lost objects they name), or not kept because the browser refused to store
 * them (then closing the tab is the only way to lose them, and the browser asks first).
 */
function DraftNotice(props: {
  restored: Draft | null;
  design: DesignDetail;
  overrides: Overrides;
  kept: boolean;
  onDiscard: () => void;
  onDismiss: () => void;
  onRemove: (names: string[]) => void;
}) {
  const { restored, design, overrides, kept } = props;
  if (!kept) {
    return (
      <p class="notice warn small" role="status" data-testid="draft-notice">
        Your edits could not be kept for this tab (the browser's storage for this site is full): they last until the page is left.
      </p>
    );
  }
  if (!restored) return null;
  const gone = Object.keys(overrides).filter((n) => !design.objects.some((o) => o.name === n));
  return (
    <div class="notice small" role="status" data-testid="draft-notice">
      <p>
        Your edits from earlier in this tab are back.
        {restored.designUpdatedAt !== design.updated_at ? ' The design has been replaced since: check them.' : ''}
        {gone.length ? ` It no longer has ${gone.join(', ')}: the preview refuses those edits until they are removed.` : ''}
      </p>
      <p class="notice-actions">
        <button type="button" class="ghost small" onClick={props.onDismiss}>
          OK
        </button>
        {gone.length ? (
          <button type="button" class="ghost small" onClick={() => props.onRemove(gone)}>
            Remove the edits of {gone.join(', ')}
          </button>
        ) : null}
        <button type="button" class="ghost small" onClick={props.onDiscard}>
          Discard them all
        </button>
      </p>
    </div>
  );
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The object's box as the overrides leave it. */
function boxOf(o: ObjectInfo, entry: Entry | undefined): Box {
  return {
    x: num(entry?.x) ?? o.box.x,
    y: num(entry?.y) ?? o.box.y,
    width: num(entry?.width) ?? o.box.width,
    height: num(entry?.height) ?? o.box.height,
  };
}
