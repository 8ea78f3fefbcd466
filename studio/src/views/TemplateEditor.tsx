// The template editor (`#/designs/<id>/edit`): the design itself, not its overrides. The canvas shows
// the engine's own render of the edited template (POST /public/v2/preview with `design`: the bytes a
// render will make once saved), with outlines to select, drag and resize; a toolbar adds objects; the
// layers list orders, locks and hides them; the properties set names (the override keys), boxes and
// text with formatting buttons (the markup stays <substyle>, never shown). Every edit is a step of
// lib/editor-history.ts (undo/redo, 100 steps), is autosaved as the design's server draft within a
// second, and "Save" makes a new version on the one the edits started from: a save that another came
// before is a 409 the person resolves (open the latest, or save as a copy). Other tabs of the same
// design hear of each save (BroadcastChannel).
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { Canvas, type CanvasObject } from '../components/Canvas.js';
import { FamilyOptions } from '../components/ObjectForm.js';
import { ErrorAlert } from '../components/ErrorAlert.js';
import { useStudio } from '../context.js';
import { useElementSize, useLoad } from '../hooks.js';
import { isApiError, networkError, type ApiError } from '../lib/api-errors.js';
import {
  addObject,
  boxOf,
  copyObjects,
  deleteObjects,
  duplicateObjects,
  groupObjects,
  moveObjects,
  pasteObjects,
  renameObject,
  reorder,
  setBox,
  setHidden,
  setLocked,
  ungroupObjects,
  updateObject,
  withGroupMates,
  type DesignJson,
  type ObjectJson,
  type OpResult,
} from '../lib/design-ops.js';
import {
  canRedo,
  canUndo,
  createHistory,
  draftPending,
  edit,
  isDirty,
  markDraftSaved,
  markSaved,
  redo,
  redoLabel,
  select,
  undo,
  undoLabel,
  type History,
} from '../lib/editor-history.js';
import { fitScale, renderScale, type Box } from '../lib/geometry.js';
import { copyName } from '../lib/new-design.js';
import { imageFileProblem } from '../lib/upload-check.js';
import { formatOf, parseRich, plainOf, replaceText, toggleFormat, applyFormat, toMarkup, type Run } from '../lib/rich-text.js';
import { nudge, snapMove, zoomStep, type SnapLine } from '../lib/snapping.js';
import type { DesignDetail } from '../lib/designs.js';

/** Autosave waits for this pause in the edits (the bound is 2 s). */
const AUTOSAVE_MS = 800;
const PREVIEW_DEBOUNCE_MS = 60;
/** Where copied objects wait for a paste, in this design or another (localStorage: every tab of the Studio). */
const CLIPBOARD_KEY = 'imprint.studio.clipboard';

type Hist = History<DesignJson, readonly number[]>;

interface Opened {
  detail: DesignDetail;
  template: DesignJson;
  version: number;
  draft: { design: DesignJson; base_version: number; assets: Record<string, string> } | null;
}

export function TemplateEditor({ id }: { id: number }) {
  const { api } = useStudio();
  const opened = useLoad<Opened>(
    async (signal) => {
      const [detail, tpl] = await Promise.all([api.design(id, signal), api.designTemplate(id, signal)]);
      const draft = detail.has_draft ? await api.draft(id, signal) : null;
      return {
        detail,
        template: tpl.template as unknown as DesignJson,
        version: tpl.version,
        draft: draft ? { design: draft.design as unknown as DesignJson, base_version: draft.base_version, assets: draft.assets } : null,
      };
    },
    [id],
  );
  if (opened.error)
    return (
      <main class="page">
        <h1>Design {id}</h1>
        <ErrorAlert error={opened.error} />
        <a href="#/">Back to the designs</a>
      </main>
    );
  if (!opened.data) return <main class="page muted">Opening design {id}…</main>;
  return <Editing opened={opened.data} />;
}

function Editing({ opened }: { opened: Opened }) {
  const { api } = useStudio();
  const id = opened.detail.design_id;
  const [h, setH] = useState<Hist>(() => {
    let hist: Hist = createHistory<DesignJson, readonly number[]>(opened.template, { version: opened.version });
    // A draft reopens on top of the version it was made on: undo goes back to that version.
    if (opened.draft) hist = markDraftSaved(edit(hist, opened.draft.design, { label: 'Your draft' }), { doc: opened.draft.design });
    return hist;
  });
  const [base, setBase] = useState(opened.draft?.base_version ?? opened.version);
  const [assets, setAssets] = useState<Record<string, string>>(opened.draft?.assets ?? {});
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [status, setStatus] = useState(opened.draft ? `Opened your draft (made on version ${opened.draft.base_version})` : `Version ${opened.version}`);
  const [conflict, setConflict] = useState<string | null>(null);
  const [elsewhere, setElsewhere] = useState<number | null>(null);
  const [lines, setLines] = useState<SnapLine[]>([]);
  const shift = useRef(false);
  const hRef = useRef(h);
  hRef.current = h;
  const doc = h.present.doc;
  const selection = h.present.selection;
  const objects = doc.objects ?? [];
  const selected = selection.length === 1 ? objects[selection[0]!] : undefined;

  /** Applies an operation's result as one step (or shows why it was refused). */
  const apply = (r: OpResult, label: string, gesture?: string) => {
    if (!r.ok) return setProblem(r.error.message);
    setProblem(null);
    setH((prev) => edit(prev, r.design, { label, selection: r.selection, ...(gesture ? { gesture } : {}) }));
  };
  const choose = (indices: number[]) => setH((prev) => select(prev, withGroupMates(prev.present.doc, indices)));

  // ── autosave: the draft on the server, within a second of the last edit ──
  useEffect(() => {
    if (!draftPending(h)) return;
    const sent = h.present.doc;
    const timer = setTimeout(() => {
      setStatus('Saving draft…');
      api.putDraft(id, sent, base, assets).then(
        () => {
          setH((prev) => markDraftSaved(prev, { doc: sent }));
          setStatus('Draft saved');
        },
        (e: unknown) => setError(isApiError(e) ? e : networkError(e)),
      );
    }, AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [h.present.doc, assets]);

  // ── leaving with unsaved changes asks first ──
  useEffect(() => {
    const onLeave = (e: BeforeUnloadEvent) => {
      if (!isDirty(hRef.current)) return;
      e.preventDefault();
      e.returnValue = '';
    };
    addEventListener('beforeunload', onLeave);
    return () => removeEventListener('beforeunload', onLeave);
  }, []);

  // ── other tabs of this design: told about each other's saves ──
  const channel = useMemo(() => (typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(`imprint.design.${id}`)), [id]);
  useEffect(() => {
    if (!channel) return;
    channel.onmessage = (m: MessageEvent<{ saved: number }>) => setElsewhere(m.data.saved);
    return () => channel.close();
  }, [channel]);

  // ── the engine's preview of the edited template ──
  const [stageRef, stage] = useElementSize<HTMLDivElement>();
  // "Fit" follows the window; a zoom step is kept as the person chose it (the stage then scrolls).
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const fit = fitScale(doc.width, doc.height, stage.width - 32, stage.height - 32);
  const scale = zoom === 'fit' ? fit : zoom;
  const [image, setImage] = useState<string | null>(null);
  const [previewError, setPreviewError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (scale <= 0) return;
    const ctl = new AbortController();
    // Near the end of the plan's requests for this minute, the preview waits for the next one (the
    // last requests stay for saves and uploads); the latest state is sent then.
    const wait = Math.max(PREVIEW_DEBOUNCE_MS, api.budget.previewDelay(performance.now()));
    const timer = setTimeout(() => {
      api.preview({ design_id: id, design: doc, assets, format: 'png', scale: renderScale(scale, devicePixelRatio) }, ctl.signal).then(
        (r) => {
          setImage(r.image);
          setPreviewError(null);
        },
        (e: unknown) => {
          if (!ctl.signal.aborted) setPreviewError(isApiError(e) ? e : networkError(e));
        },
      );
    }, wait);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [doc, assets, scale]);

  // ── save: a new version on the one the edits started from ──
  const save = async () => {
    const sent = h.present.doc;
    setStatus('Saving…');
    try {
      const saved = await api.saveVersion(id, sent, base, assets);
      setBase(saved.version);
      setAssets({});
      setH((prev) => markSaved(prev, { doc: sent, version: saved.version }));
      setStatus(`Saved as version ${saved.version}`);
      setConflict(null);
      channel?.postMessage({ saved: saved.version });
    } catch (e) {
      const err = isApiError(e) ? e : networkError(e);
      if (err.status === 409) {
        setConflict(err.message);
        setStatus('Not saved');
      } else {
        setError(err);
        setStatus('Not saved');
      }
    }
  };
  const saveAsCopy = async () => {
    try {
      const names = (await api.designs()).map((d) => d.name);
      // The copy starts as a duplicate (which carries the design's files), and the edits are saved on it.
      const copy = await api.duplicateDesign(id, copyName(opened.detail.name || `Design ${id}`, names));
      await api.saveVersion(copy.design_id, h.present.doc, copy.version, assets);
      const made = copy;
      // The copy has the edits; this design's draft (if the other save left one) stays as it was: nothing is thrown away unasked.
      setH((prev) => markSaved(prev));
      location.hash = `#/designs/${made.design_id}/edit`;
    } catch (e) {
      setError(isApiError(e) ? e : networkError(e));
    }
  };
  const openLatest = () => {
    if (!confirm('Open the latest version? Your edits here are lost (save them as a copy first to keep them).')) return;
    void api
      .deleteDraft(id)
      .catch(() => undefined)
      .then(() => {
        setH((prev) => markSaved(prev));
        location.reload();
      });
  };

  // ── keys: undo/redo, delete, duplicate, copy/paste, nudge ──
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      shift.current = e.shiftKey;
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
      const cur = hRef.current;
      const sel = cur.present.selection;
      const mod = e.ctrlKey || e.metaKey;
      const k = e.key.toLowerCase();
      if (mod && k === 'z' && !e.shiftKey) return (e.preventDefault(), setH(undo(cur)));
      if (mod && ((k === 'z' && e.shiftKey) || k === 'y')) return (e.preventDefault(), setH(redo(cur)));
      if (!sel.length) return;
      if (k === 'delete' || k === 'backspace') return (e.preventDefault(), apply(deleteObjects(cur.present.doc, sel), 'Delete'));
      if (mod && k === 'd') return (e.preventDefault(), apply(duplicateObjects(cur.present.doc, sel), 'Duplicate'));
      if (mod && k === 'c') {
        const c = copyObjects(cur.present.doc, sel);
        if (c.ok) localStorage.setItem(CLIPBOARD_KEY, c.text);
        return;
      }
      if (e.key.startsWith('Arrow')) {
        e.preventDefault();
        const step = nudge(e.key, e.shiftKey);
        if (!step) return;
        const { dx, dy } = step;
        apply(moveObjects(cur.present.doc, sel, dx, dy), 'Nudge', `nudge:${sel.join(',')}`);
      }
    };
    const onUp = (e: KeyboardEvent) => (shift.current = e.shiftKey);
    const onPaste = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA')) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'v') {
        const text = localStorage.getItem(CLIPBOARD_KEY);
        if (!text) return;
        e.preventDefault();
        const r = pasteObjects(hRef.current.present.doc, text);
        if (r.ok && r.assets.length > 0) setProblem(`Pasted; the objects name files this design does not have (${r.assets.join(', ')}): upload them again.`);
        apply(r, 'Paste');
      }
    };
    addEventListener('keydown', onKey);
    addEventListener('keydown', onPaste);
    addEventListener('keyup', onUp);
    return () => {
      removeEventListener('keydown', onKey);
      removeEventListener('keydown', onPaste);
      removeEventListener('keyup', onUp);
    };
  }, []);

  // ── the canvas: outlines of the visible objects; a drag snaps to the canvas and the other objects ──
  const canvasObjects: CanvasObject[] = objects.flatMap((o, i) =>
    o.hidden || !o.name ? [] : [{ key: String(i), name: o.name, type: o.type, box: boxOf(o), rotation: o.rotation ?? 0 }],
  );
  const indexOf = (name: string) => objects.findIndex((o) => o.name === name);
  const onSelect = (name: string) => {
    const i = indexOf(name);
    if (i < 0) return;
    if (shift.current) choose(selection.includes(i) ? selection.filter((s) => s !== i) : [...selection, i]);
    else if (!selection.includes(i)) choose([i]);
  };
  const onBox = (name: string, box: Box) => {
    const cur = hRef.current.present;
    const list = cur.doc.objects ?? [];
    const i = list.findIndex((o) => o.name === name);
    if (i < 0 || list[i]!.locked) return;
    const now = boxOf(list[i]!);
    const moving = box.width === now.width && box.height === now.height;
    if (!moving) return apply(setBox(cur.doc, i, box), 'Resize', `resize:${i}`);
    const group = cur.selection.includes(i) ? cur.selection : [i];
    const others = list.flatMap((o, j) => (group.includes(j) || o.hidden ? [] : [{ box: boxOf(o), rotation: o.rotation ?? 0 }]));
    const snapped = snapMove(
      group.map((j) => ({ box: boxOf(list[j]!), rotation: list[j]!.rotation ?? 0 })),
      box.x - now.x,
      box.y - now.y,
      { others, canvas: { width: cur.doc.width, height: cur.doc.height }, zoom: scale },
    );
    setLines(snapped.lines);
    apply(moveObjects(cur.doc, group, snapped.dx, snapped.dy), 'Move', `move:${group.join(',')}`);
  };

  const add = (spec: Parameters<typeof addObject>[1], label: string) => apply(addObject(doc, spec), label);
  const addImage = async (file: File | undefined) => {
    if (!file) return;
    const refused = imageFileProblem(file);
    if (refused) return setProblem(refused);
    try {
      const url = await api.upload(file);
      const ext = /\.(png|jpe?g|webp|avif|gif|svg)$/i.exec(file.name)?.[1]?.toLowerCase() ?? 'png';
      let n = 1;
      while (assets[`images/image-${n}.${ext}`] || JSON.stringify(doc).includes(`"images/image-${n}.${ext}"`)) n++;
      const path = `images/image-${n}.${ext}`;
      setAssets((a) => ({ ...a, [path]: url }));
      add({ type: 'image', path }, 'Add image');
    } catch (e) {
      setError(isApiError(e) ? e : networkError(e));
    }
  };

  return (
    <main class="template-editor" onPointerUp={() => setLines([])}>
      <header class="editor-bar">
        <a href="#/">Designs</a>
        <h1>{opened.detail.name || `Design ${id}`}</h1>
        <span class="muted" data-testid="save-status" role="status">
          {status}
          {isDirty(h) ? ' · unsaved changes' : ''}
        </span>
        <button type="button" onClick={() => setH(undo(h))} disabled={!canUndo(h)} title={`Undo ${undoLabel(h)} (Ctrl+Z)`}>
          Undo
        </button>
        <button type="button" onClick={() => setH(redo(h))} disabled={!canRedo(h)} title={`Redo ${redoLabel(h)} (Ctrl+Shift+Z)`}>
          Redo
        </button>
        <button type="button" class="primary" onClick={() => void save()} disabled={!isDirty(h) && Object.keys(assets).length === 0}>
          Save
        </button>
        <span class="zoom" role="group" aria-label="Zoom">
          <button type="button" aria-label="Zoom out" onClick={() => setZoom(zoomStep(scale, -1))}>
            −
          </button>
          <button type="button" aria-label="Fit to screen" aria-pressed={zoom === 'fit'} onClick={() => setZoom('fit')}>
            {Math.round(scale * 100)} %
          </button>
          <button type="button" aria-label="Zoom in" onClick={() => setZoom(zoomStep(scale, 1))}>
            +
          </button>
        </span>
        <a class="button" href={`#/designs/${id}`}>
          Fill in and render
        </a>
      </header>
      {conflict ? (
        <div role="alertdialog" aria-label="Save conflict" class="alert">
          <p>Another save of this design came first: {conflict}. Your edits are kept in this page and its draft.</p>
          <button type="button" onClick={() => void saveAsCopy()}>
            Save as a copy
          </button>{' '}
          <button type="button" onClick={openLatest}>
            Open the latest version
          </button>
        </div>
      ) : null}
      {elsewhere !== null && !conflict ? (
        <div role="status" class="alert info">
          This design was saved as version {elsewhere} in another tab; saving here will ask what to do.
        </div>
      ) : null}
      <ErrorAlert error={error} />
      {problem ? (
        <div role="alert" class="alert">
          {problem}
        </div>
      ) : null}
      <div class="editor-body">
        <aside class="editor-left">
          <section aria-label="Add">
            <h2>Add</h2>
            <div class="add-buttons">
              <button type="button" onClick={() => add({ type: 'text' }, 'Add text')}>
                Text
              </button>
              <button type="button" onClick={() => add({ type: 'shape', shape: 'rect' }, 'Add rectangle')}>
                Rectangle
              </button>
              <button type="button" onClick={() => add({ type: 'shape', shape: 'ellipse' }, 'Add ellipse')}>
                Ellipse
              </button>
              <button type="button" onClick={() => add({ type: 'line' }, 'Add line')}>
                Line
              </button>
              <button type="button" onClick={() => add({ type: 'chart' }, 'Add chart')}>
                Chart
              </button>
              <label class="button">
                Image…
                <input
                  type="file"
                  accept="image/*"
                  class="visually-hidden"
                  aria-label="Add an image"
                  onChange={(e) => void addImage(e.currentTarget.files?.[0])}
                />
              </label>
            </div>
          </section>
          <Layers doc={doc} selection={selection} onChoose={(i, extend) => choose(extend ? [...new Set([...selection, i])] : [i])} apply={apply} />
        </aside>
        <div class="editor-stage" ref={stageRef}>
          <div class="stage-inner">
            <Canvas
              width={doc.width}
              height={doc.height}
              scale={scale}
              image={image}
              imageAlt={`Preview of ${opened.detail.name}`}
              busy={false}
              objects={canvasObjects}
              selected={selected?.name ?? null}
              onSelect={onSelect}
              onBox={onBox}
            />
            <svg class="snap-lines" width={doc.width * scale} height={doc.height * scale} aria-hidden="true">
              {lines.map((l, i) =>
                l.axis === 'x' ? (
                  <line key={i} x1={l.at * scale} x2={l.at * scale} y1={l.from * scale} y2={l.to * scale} />
                ) : (
                  <line key={i} y1={l.at * scale} y2={l.at * scale} x1={l.from * scale} x2={l.to * scale} />
                ),
              )}
            </svg>
          </div>
          <ErrorAlert error={previewError} prefix="The preview could not be drawn" />
        </div>
        <aside class="editor-right" aria-label="Properties">
          {selection.length > 1 ? (
            <section>
              <h2>{selection.length} objects</h2>
              <button type="button" onClick={() => apply(groupObjects(doc, selection), 'Group')}>
                Group
              </button>{' '}
              <button type="button" onClick={() => apply(ungroupObjects(doc, selection), 'Ungroup')}>
                Ungroup
              </button>
            </section>
          ) : null}
          {selected ? (
            <Properties key={selection[0]} object={selected} index={selection[0]!} doc={doc} apply={apply} />
          ) : (
            <p class="muted">Select an object, or add one.</p>
          )}
        </aside>
      </div>
    </main>
  );
}

/** The objects, topmost first: select (shift adds), order, lock and hide. */
function Layers({
  doc,
  selection,
  onChoose,
  apply,
}: {
  doc: DesignJson;
  selection: readonly number[];
  onChoose: (i: number, extend: boolean) => void;
  apply: (r: OpResult, label: string) => void;
}) {
  const objects = doc.objects ?? [];
  const order = objects.map((_, i) => i).reverse();
  return (
    <section aria-label="Layers">
      <h2>Layers</h2>
      <ul class="layers" data-testid="layers">
        {order.map((i) => {
          const o = objects[i]!;
          return (
            <li key={i} class={selection.includes(i) ? 'selected' : undefined} data-layer={o.name}>
              <button type="button" class="layer-name" aria-pressed={selection.includes(i)} onClick={(e) => onChoose(i, e.shiftKey)}>
                {o.name ?? `(${o.type})`} <em>{o.type}</em>
                {o.group ? <span class="badge">group</span> : null}
              </button>
              <button
                type="button"
                title="Bring forward"
                aria-label={`Bring ${o.name} forward`}
                onClick={() => apply(reorder(doc, [i], 'forward'), 'Bring forward')}
              >
                ↑
              </button>
              <button
                type="button"
                title="Send backward"
                aria-label={`Send ${o.name} backward`}
                onClick={() => apply(reorder(doc, [i], 'backward'), 'Send backward')}
              >
                ↓
              </button>
              <button
                type="button"
                aria-pressed={!!o.locked}
                aria-label={`Lock ${o.name}`}
                onClick={() => apply(setLocked(doc, [i], !o.locked), o.locked ? 'Unlock' : 'Lock')}
              >
                {o.locked ? 'Locked' : 'Lock'}
              </button>
              <button
                type="button"
                aria-pressed={!!o.hidden}
                aria-label={`Hide ${o.name}`}
                onClick={() => apply(setHidden(doc, [i], !o.hidden), o.hidden ? 'Show' : 'Hide')}
              >
                {o.hidden ? 'Hidden' : 'Hide'}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const num = (v: unknown, fallback = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** The selected object's fields: its name (the override key), its box, and per type its text or fill. */
function Properties({
  object: o,
  index,
  doc,
  apply,
}: {
  object: ObjectJson;
  index: number;
  doc: DesignJson;
  apply: (r: OpResult, label: string, gesture?: string) => void;
}) {
  const [name, setName] = useState(o.name ?? '');
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const commitName = () => {
    if (name === o.name) return;
    const r = renameObject(doc, index, name);
    if (!r.ok) return setNameProblem(r.error.message);
    setNameProblem(null);
    apply(r, `Rename ${o.name}`);
  };
  const field = (key: 'x' | 'y' | 'width' | 'height', label: string) => (
    <label>
      {label}
      <input
        type="number"
        value={Math.round(num(o[key]) * 100) / 100}
        onChange={(e) => apply(setBox(doc, index, { [key]: Number(e.currentTarget.value) }), `Set ${label}`)}
        title={key}
      />
    </label>
  );
  return (
    <section class="properties">
      <h2>{o.type}</h2>
      <label title="name: the key that overrides use (objects_overrides.<name>)">
        Name
        <input
          type="text"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          onBlur={commitName}
          onKeyDown={(e) => e.key === 'Enter' && commitName()}
          aria-invalid={nameProblem ? true : undefined}
        />
      </label>
      {nameProblem ? <p class="field-error">{nameProblem}</p> : null}
      <div class="box-fields">
        {field('x', 'X')}
        {field('y', 'Y')}
        {field('width', 'Width')}
        {field('height', 'Height')}
      </div>
      {o.type === 'text' ? <TextProperties object={o} index={index} doc={doc} apply={apply} /> : null}
      {o.type === 'shape' ? (
        <label title="background.color">
          Fill colour
          <input
            type="color"
            value={((o.background as { color?: string } | undefined)?.color ?? '#cccccc').slice(0, 7)}
            onInput={(e) => apply(updateObject(doc, index, { background: { type: 'color', color: e.currentTarget.value } }), 'Fill colour', `fill:${index}`)}
          />
        </label>
      ) : null}
    </section>
  );
}

/**
 * A text's words with formatting buttons: the textarea shows the plain text (never the markup); typing
 * replaces the changed range keeping its style; Bold, Italic, Underline and Colour format the selected
 * characters; the object's markup is written back as <substyle> (lib/rich-text.ts).
 */
function TextProperties({
  object: o,
  index,
  doc,
  apply,
}: {
  object: ObjectJson;
  index: number;
  doc: DesignJson;
  apply: (r: OpResult, label: string, gesture?: string) => void;
}) {
  const markup = typeof o.text === 'string' ? o.text : '';
  const parsed = parseRich(markup);
  const runs: Run[] = parsed.ok ? parsed.runs : [{ text: markup, style: {} }];
  const plain = plainOf(runs);
  const area = useRef<HTMLTextAreaElement>(null);
  const [range, setRange] = useState<[number, number]>([0, 0]);
  const base = { font_weight: num(o.font_weight, 400) };
  const write = (next: Run[], label: string, gesture?: string) => apply(updateObject(doc, index, { text: toMarkup(next) }), label, gesture);
  const onInput = (value: string) => {
    // The changed range: what the old and the new text do not share at their ends.
    let start = 0;
    while (start < plain.length && start < value.length && plain[start] === value[start]) start++;
    let endOld = plain.length;
    let endNew = value.length;
    while (endOld > start && endNew > start && plain[endOld - 1] === value[endNew - 1]) {
      endOld--;
      endNew--;
    }
    const r = replaceText(runs, start, endOld, value.slice(start, endNew));
    if (r.ok) write(r.runs, 'Type', `text:${index}`);
  };
  const [a, b] = range;
  const state = formatOf(runs, a, b, base);
  const toggle = (f: 'bold' | 'italic' | 'underline') => {
    const r = toggleFormat(runs, a, b, f, base);
    if (r.ok) write(r.runs, f[0]!.toUpperCase() + f.slice(1));
  };
  return (
    <>
      <div class="format-buttons" role="toolbar" aria-label="Text formatting">
        <button type="button" aria-pressed={state.bold === true} onClick={() => toggle('bold')} disabled={a === b} title="Bold the selected words">
          <b>B</b>
        </button>
        <button type="button" aria-pressed={state.italic === true} onClick={() => toggle('italic')} disabled={a === b} title="Italic">
          <i>I</i>
        </button>
        <button type="button" aria-pressed={state.underline === true} onClick={() => toggle('underline')} disabled={a === b} title="Underline">
          <u>U</u>
        </button>
        <label title="Colour of the selected words">
          <span class="visually-hidden">Colour of the selected words</span>
          <input
            type="color"
            disabled={a === b}
            value={typeof state.color === 'string' ? state.color.slice(0, 7) : '#000000'}
            onChange={(e) => {
              const r = applyFormat(runs, a, b, { color: e.currentTarget.value }, base);
              if (r.ok) write(r.runs, 'Colour');
            }}
          />
        </label>
      </div>
      <label title="text">
        Text
        <textarea
          ref={area}
          rows={4}
          value={plain}
          onInput={(e) => onInput(e.currentTarget.value)}
          onSelect={(e) => setRange([e.currentTarget.selectionStart, e.currentTarget.selectionEnd])}
        />
      </label>
      <FamilyField object={o} index={index} doc={doc} apply={apply} />
      <label title="font_size">
        Font size
        <input
          type="number"
          min={1}
          value={num(o.font_size, 40)}
          onChange={(e) => apply(updateObject(doc, index, { font_size: Number(e.currentTarget.value) }), 'Font size')}
        />
      </label>
      <label title="color">
        Colour
        <input
          type="color"
          value={(typeof o.color === 'string' ? o.color : '#000000').slice(0, 7)}
          onInput={(e) => apply(updateObject(doc, index, { color: e.currentTarget.value }), 'Text colour', `color:${index}`)}
        />
      </label>
    </>
  );
}

/**
 * The text's font family: any family the engine can use (the account's library, the bundled ones,
 * installed and, as the person types, the Google Fonts catalogue's: the same choices as the form's
 * picker). Picking one also names it in the design's `fonts`, which is what installs a catalogue
 * family for the preview and every render.
 */
function FamilyField({ object: o, index, doc, apply }: { object: ObjectJson; index: number; doc: DesignJson; apply: (r: OpResult, label: string) => void }) {
  const id = useId();
  const current = typeof o.font_family === 'string' ? o.font_family : '';
  const [typed, setTyped] = useState(current);
  const commit = () => {
    const family = typed.trim();
    if (!family || family === current) return;
    const r = updateObject(doc, index, { font_family: family });
    if (!r.ok) return apply(r, 'Font family');
    const named = (r.design.fonts ?? []).some((f) => (typeof f === 'string' ? f : f.family) === family);
    apply({ ...r, design: named ? r.design : { ...r.design, fonts: [...(r.design.fonts ?? []), family] } }, 'Font family');
  };
  return (
    <label title="font_family">
      Font family
      <input
        type="text"
        list={`${id}-families`}
        autocomplete="off"
        value={typed}
        placeholder="Inter"
        onInput={(e) => setTyped(e.currentTarget.value)}
        onChange={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
      <FamilyOptions id={`${id}-families`} search={typed} />
    </label>
  );
}
