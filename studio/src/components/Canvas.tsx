// The preview with the object overlay: per visible named object an outline (shown on hover, with its
// name and type) that a click selects and a drag moves; the selected one has 8 handles that resize
// it. Pointer positions are screen pixels, turned into template pixels by the display scale
// (lib/geometry.ts); the new box goes to the form as x/y/width/height overrides. Outlines are cut to
// the canvas and name tags placed outside them (lib/overlay.ts). Objects that share a name (a role)
// are selected together and are not dragged: a box override would put all of them in one place.
import { useRef } from 'preact/hooks';
import { HANDLES, moveBox, resizeBox, type Box, type Handle } from '../lib/geometry.js';
import { tagPlacement, visibleBox } from '../lib/overlay.js';

export interface CanvasObject {
  /** Unique among the objects (the template path), where names may repeat. */
  key: string;
  name: string;
  /** Another object has this name too: clicks select the name, drags do nothing. */
  shared?: boolean;
  type: string;
  box: Box;
  rotation: number;
}

interface Props {
  width: number;
  height: number;
  /** CSS pixels per template pixel. */
  scale: number;
  image: string | null;
  imageAlt: string;
  busy: boolean;
  objects: CanvasObject[];
  selected: string | null;
  onSelect: (name: string) => void;
  onBox: (name: string, box: Box) => void;
}

interface Drag {
  name: string;
  mode: 'move' | Handle;
  startX: number;
  startY: number;
  box: Box;
  rotation: number;
  moved: boolean;
  pointer: number;
}

/** Movement below this many screen pixels is a click, not a drag. */
const CLICK_SLOP = 3;

export function Canvas({ width, height, scale, image, imageAlt, busy, objects, selected, onSelect, onBox }: Props) {
  const drag = useRef<Drag | null>(null);

  const start = (e: PointerEvent, o: CanvasObject, mode: Drag['mode']) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    onSelect(o.name);
    if (o.shared) return;
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    drag.current = { name: o.name, mode, startX: e.clientX, startY: e.clientY, box: o.box, rotation: o.rotation, moved: false, pointer: e.pointerId };
  };
  const move = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || d.pointer !== e.pointerId) return;
    const dx = e.clientX - d.startX;
    const dy = e.clientY - d.startY;
    if (!d.moved && Math.hypot(dx, dy) < CLICK_SLOP) return;
    d.moved = true;
    onBox(d.name, d.mode === 'move' ? moveBox(d.box, dx, dy, scale) : resizeBox(d.box, d.mode, dx, dy, scale, d.rotation));
  };
  const end = (e: PointerEvent) => {
    if (drag.current?.pointer === e.pointerId) drag.current = null;
  };

  const w = Math.round(width * scale);
  const h = Math.round(height * scale);
  return (
    <div class={`canvas${busy ? ' busy' : ''}`} style={{ width: `${w}px`, height: `${h}px` }}>
      {image ? <img data-testid="preview" src={image} alt={imageAlt} width={w} height={h} draggable={false} /> : <div class="placeholder">rendering…</div>}
      <div class="overlay" onPointerMove={move} onPointerUp={end} onPointerCancel={end}>
        {objects.map((o) => {
          const isSel = o.name === selected;
          // A rotated outline turns with its object and is drawn whole; an upright one is cut to the
          // canvas (drags still move and resize the whole box: the handles change its real edges).
          const shown = o.rotation
            ? { x: o.box.x * scale, y: o.box.y * scale, width: o.box.width * scale, height: o.box.height * scale }
            : visibleBox(o.box, scale, w, h);
          const tag = tagPlacement(shown, w, h);
          return (
            <div
              key={o.key}
              class={`obj${isSel ? ' selected' : ''} tag-${tag.side} tag-${tag.align}`}
              data-object={o.name}
              data-shared={o.shared ? 'true' : undefined}
              role="button"
              tabIndex={-1}
              aria-label={`${o.name} (${o.type})`}
              aria-pressed={isSel}
              style={{
                left: `${shown.x}px`,
                top: `${shown.y}px`,
                width: `${shown.width}px`,
                height: `${shown.height}px`,
                transform: o.rotation ? `rotate(${o.rotation}deg)` : undefined,
              }}
              onPointerDown={(e) => start(e, o, 'move')}
            >
              <span class="obj-label" aria-hidden="true">
                {o.name} <em>{o.type}</em>
              </span>
              {isSel && !o.shared
                ? HANDLES.map((hd) => <span key={hd} class={`handle h-${hd}`} data-handle={hd} aria-hidden="true" onPointerDown={(e) => start(e, o, hd)} />)
                : null}
            </div>
          );
        })}
      </div>
    </div>
  );
}
