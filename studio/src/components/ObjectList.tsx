// The design's named objects as a listbox (role=listbox, aria-label "Objects"): click or
// ArrowUp/ArrowDown (Home/End) to select, Enter/Space to select the focused option; the selected one
// has aria-selected and is scrolled into view. An option's name is the object's name and type
// ("headline text"); a dot (hidden from the accessible name, so it stays the same) marks overrides.
// A name several objects share (a role) is one option, with their count: its override applies to all.
import { useEffect, useRef } from 'preact/hooks';
import type { ObjectInfo } from '../lib/designs.js';

interface Props {
  objects: ObjectInfo[];
  selected: string | null;
  overridden: (name: string) => boolean;
  onSelect: (name: string) => void;
}

export function ObjectList({ objects: all, selected, overridden, onSelect }: Props) {
  const list = useRef<HTMLUListElement>(null);
  const counts = new Map<string, number>();
  for (const o of all) counts.set(o.name, (counts.get(o.name) ?? 0) + 1);
  const objects = all.filter((o, i) => all.findIndex((x) => x.name === o.name) === i);
  const index = objects.findIndex((o) => o.name === selected);

  useEffect(() => {
    const el = list.current?.querySelector('[aria-selected="true"]');
    if (el instanceof HTMLElement) el.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const onKeyDown = (e: KeyboardEvent) => {
    const last = objects.length - 1;
    if (last < 0) return;
    let next: number | undefined;
    if (e.key === 'ArrowDown') next = index < 0 ? 0 : Math.min(last, index + 1);
    else if (e.key === 'ArrowUp') next = index < 0 ? last : Math.max(0, index - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = last;
    else if (e.key === 'Enter' || e.key === ' ') next = index < 0 ? 0 : index;
    if (next === undefined) return;
    e.preventDefault();
    onSelect(objects[next]!.name);
  };

  return (
    <ul
      ref={list}
      class="object-list"
      role="listbox"
      aria-label="Objects"
      tabIndex={0}
      aria-activedescendant={index >= 0 ? `object-option-${index}` : undefined}
      onKeyDown={onKeyDown}
    >
      {objects.map((o, i) => (
        <li key={o.name} id={`object-option-${i}`} role="option" aria-selected={o.name === selected} onClick={() => onSelect(o.name)}>
          <span class="name">{o.name}</span>
          {(counts.get(o.name) ?? 1) > 1 ? (
            <span class="muted small" title={`${counts.get(o.name)} objects share this name: an override applies to all of them`}>
              ×{counts.get(o.name)}
            </span>
          ) : null}
          <span class={`badge ${o.type}`}>{o.type}</span>
          {o.slide ? <span class="muted small">{o.slide}</span> : null}
          {overridden(o.name) ? <span class="dot" title="has overrides" aria-hidden="true" /> : null}
        </li>
      ))}
    </ul>
  );
}
