// The selected object's form, generated from its `override_schema` (lib/schema-form.ts): one labelled
// control per field (labels in words, the JSON key in the tooltip: lib/field-text.ts), showing the
// override where there is one and the template's value otherwise; a change becomes an override only
// when it differs from the template. Errors the preview reports at a field's JSON path are shown
// under that field.
import { useEffect, useId, useState } from 'preact/hooks';
import { useStudio } from '../context.js';
import type { FontFamily } from '../lib/api.js';
import type { ObjectInfo } from '../lib/designs.js';
import { fieldLabel, fieldTitle, noOverrideText } from '../lib/field-text.js';
import { effectiveValue, getAt, type Entry, type Json } from '../lib/overrides.js';
import { colourInputValue, formFields, numberInputBounds, parseNumberInput, parseStringInput, type Field } from '../lib/schema-form.js';
import { ChartGrid } from './ChartGrid.js';
import { ImageField } from './ImageField.js';
import { TextField } from './TextField.js';

interface Props {
  object: ObjectInfo;
  /** Every object with this name (a role): more than one means the override applies to all of them. */
  sharing?: ObjectInfo[];
  /** The template's values (ObjectInfo.values with the box filled in). */
  base: Record<string, unknown>;
  entry: Entry | undefined;
  /** Dotted field id → message, from the last preview's validation error. */
  errors: Record<string, string>;
  onChange: (path: string[], value: Json | undefined) => void;
  onReset: () => void;
}

export function ObjectForm({ object, sharing = [], base, entry, errors, onChange, onReset }: Props) {
  const fields = formFields(object.override_schema);
  // What the object shows (text, image, data, nested options) first; the plain numbers and switches
  // (placement, opacity, hidden) after, two to a row. Chosen by kind, not by name.
  const isSimple = (f: Field) => f.kind === 'number' || f.kind === 'boolean';
  const content = fields.filter((f) => !isSimple(f));
  const simple = fields.filter(isSimple);
  const common = { base, entry, errors, onChange, objectType: object.type, layers: layerIds(object, entry) };
  const changed = entry ? Object.keys(entry).length : 0;
  return (
    <section class="object-form" aria-label={`Fields of ${object.name}`}>
      <div class="form-head">
        <h2>
          {object.name} <span class={`badge ${object.type}`}>{object.type}</span>
        </h2>
        <button type="button" onClick={onReset} disabled={!changed} title="Remove every override of this object">
          Reset
        </button>
      </div>
      {sharing.length > 1 ? (
        <p class="muted small" data-testid="shared-name">
          {sharing.length} objects share this name ({[...new Set(sharing.map((o) => o.type))].join(', ')}): an override applies to every one of them.
        </p>
      ) : null}
      <p class="muted small">{changed ? `${changed} field${changed > 1 ? 's' : ''} overridden` : 'No overrides: the template as it is.'}</p>
      <FieldList fields={content} {...common} />
      {simple.length ? (
        <div class="field-grid">
          <FieldList fields={simple} {...common} />
        </div>
      ) : null}
    </section>
  );
}

/** A mockup's layers: listed by the service (with their kind), or the ids its values or overrides name. */
function layerIds(o: ObjectInfo, entry: Entry | undefined): Layer[] {
  const layers = new Map<string, Layer>();
  for (const l of o.layers ?? []) layers.set(l.id, { id: l.id, kind: l.kind });
  for (const src of [o.values.mockup_data, entry?.mockup_data]) {
    if (src && typeof src === 'object' && !Array.isArray(src)) for (const k of Object.keys(src)) if (!layers.has(k)) layers.set(k, { id: k });
  }
  return [...layers.values()];
}

interface Layer {
  id: string;
  kind?: string | undefined;
}

/**
 * The layer fields that apply to a layer of this kind, as the schema's descriptions say: `image_url`
 * for image layers, `color` for colour layers, `hidden` for all. A layer of unknown kind gets them all.
 */
function appliesTo(layer: Layer, f: Field): boolean {
  if (layer.kind === undefined || f.kind === 'boolean') return true;
  if (f.kind === 'string' && f.widget === 'image') return layer.kind === 'image';
  if (f.kind === 'string' && f.widget === 'color') return layer.kind === 'color';
  return true;
}

interface ListProps {
  fields: Field[];
  base: Record<string, unknown>;
  entry: Entry | undefined;
  errors: Record<string, string>;
  onChange: (path: string[], value: Json | undefined) => void;
  objectType: string;
  layers: Layer[];
}

function FieldList(p: ListProps) {
  return (
    <>
      {p.fields.map((f) => (
        <FieldControl key={f.id} {...p} field={f} />
      ))}
    </>
  );
}

function FieldControl(p: ListProps & { field: Field }) {
  const { field: f, base, entry, errors, onChange } = p;
  const value = effectiveValue(base, entry, f.path);
  const overridden = getAt(entry, f.path) !== undefined;
  const error = errors[f.id];
  const set = (v: Json | undefined) => onChange(f.path, v);
  const label = fieldLabel(f.key);
  const title = fieldTitle(f.id, f.description);
  switch (f.kind) {
    case 'group':
      return (
        <fieldset class={`group${overridden ? ' overridden' : ''}`}>
          <legend title={title}>{label}</legend>
          <FieldList {...p} fields={f.fields} />
        </fieldset>
      );
    case 'enum':
      return <EnumField field={f} value={value} template={getAt(base, f.path)} overridden={overridden} error={error} set={set} />;
    case 'boolean':
      // Unticking a box the template leaves unset removes the override rather than sending false (the default).
      return (
        <BooleanField
          label={label}
          title={title}
          fieldId={f.id}
          value={value}
          overridden={overridden}
          error={error}
          set={(v) => set(v === false && getAt(base, f.path) === undefined ? undefined : v)}
        />
      );
    case 'number':
      return <NumberField field={f} value={value} overridden={overridden} error={error} set={set} />;
    case 'string':
      if (f.widget === 'markup')
        return (
          <TextField
            label={label}
            title={title}
            value={typeof value === 'string' ? value : ''}
            overridden={overridden}
            error={error}
            maxLength={f.maxLength}
            onChange={(t) => set(t)}
          />
        );
      if (f.widget === 'image')
        return (
          <ImageField
            label={label}
            title={title}
            fieldId={f.id}
            value={typeof value === 'string' ? value : undefined}
            overridden={overridden}
            error={error}
            onChange={set}
          />
        );
      return <StringField field={f} value={value} overridden={overridden} error={error} set={set} />;
    case 'chart':
      return <ChartGrid label={label} title={title} value={value} overridden={overridden} error={error} onChange={(d) => set(d)} />;
    case 'layers':
      return <Layers {...p} field={f} />;
    case 'json':
      return <JsonField label={label} title={title} fieldId={f.id} value={value} overridden={overridden} error={error} set={set} />;
  }
}

interface LeafProps {
  value: unknown;
  overridden: boolean;
  error: string | undefined;
  set: (v: Json | undefined) => void;
}

function Message({ id, text }: { id: string; text: string | null | undefined }) {
  return text ? (
    <p id={id} class="field-error">
      {text}
    </p>
  ) : null;
}

/**
 * A select whose first option is "no override", named after the value in use without one (the
 * template's, else the renderer's default): `top (template)`, `center (default)`.
 */
function EnumField({ field: f, value, template, overridden, error, set }: LeafProps & { field: Extract<Field, { kind: 'enum' }>; template: unknown }) {
  const id = useId();
  const current = overridden && typeof value === 'string' ? value : '';
  return (
    <div class={`field${overridden ? ' overridden' : ''}`}>
      <label for={id} title={fieldTitle(f.id, f.description)}>
        {fieldLabel(f.key)}
      </label>
      <select id={id} data-field={f.id} value={current} aria-invalid={error ? 'true' : undefined} onChange={(e) => set(e.currentTarget.value || undefined)}>
        <option value="">{noOverrideText(template, f.description, f.options)}</option>
        {f.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      <Message id={`${id}-msg`} text={error} />
    </div>
  );
}

function BooleanField({ label, title, fieldId, value, overridden, error, set }: LeafProps & { label: string; title: string; fieldId: string }) {
  const id = useId();
  return (
    <div class={`field check${overridden ? ' overridden' : ''}`}>
      <input id={id} type="checkbox" data-field={fieldId} checked={value === true} onChange={(e) => set(e.currentTarget.checked)} />
      <label for={id} title={title}>
        {label}
      </label>
      <Message id={`${id}-msg`} text={error} />
    </div>
  );
}

function NumberField({ field: f, value, overridden, error, set }: LeafProps & { field: Extract<Field, { kind: 'number' }> }) {
  const id = useId();
  // What the user is typing, while it differs from the value (a half-typed or invalid number).
  const [draft, setDraft] = useState<{ text: string; problem: string | null } | null>(null);
  const shown = draft?.text ?? (typeof value === 'number' ? String(value) : '');
  const problem = draft?.problem ?? null;
  const onInput = (el: HTMLInputElement) => {
    if (el.validity.badInput) return setDraft({ text: el.value, problem: 'not a number' });
    const parsed = parseNumberInput(el.value, f);
    setDraft({ text: el.value, problem: parsed.ok ? null : parsed.message });
    if (parsed.ok) set(parsed.value);
  };
  const message = problem ?? error;
  return (
    <div class={`field${overridden ? ' overridden' : ''}`}>
      <label for={id} title={fieldTitle(f.id, f.description)}>
        {fieldLabel(f.key)}
      </label>
      <input
        id={id}
        type="number"
        data-field={f.id}
        {...numberInputBounds(f)}
        value={shown}
        aria-invalid={message ? 'true' : undefined}
        aria-describedby={message ? `${id}-msg` : undefined}
        onInput={(e) => onInput(e.currentTarget)}
        onBlur={() => setDraft((d) => (d?.problem ? d : null))}
      />
      <Message id={`${id}-msg`} text={message} />
    </div>
  );
}

function StringField({ field: f, value, overridden, error, set }: LeafProps & { field: Extract<Field, { kind: 'string' }> }) {
  const id = useId();
  const [draft, setDraft] = useState<{ text: string; problem: string | null } | null>(null);
  const shown = draft?.text ?? (typeof value === 'string' ? value : '');
  const onInput = (text: string) => {
    const parsed = parseStringInput(text, f);
    setDraft({ text, problem: parsed.ok ? null : parsed.message });
    if (parsed.ok) set(parsed.value);
  };
  const message = draft?.problem ?? error;
  const swatch = colourInputValue(shown);
  return (
    <div class={`field${f.widget === 'color' ? ' colour' : ''}${overridden ? ' overridden' : ''}`}>
      <label for={id} title={fieldTitle(f.id, f.description)}>
        {fieldLabel(f.key)}
      </label>
      <div class="inline">
        {f.widget === 'color' ? (
          <input type="color" aria-label={`${fieldLabel(f.key)} swatch`} value={swatch ?? '#000000'} onInput={(e) => onInput(e.currentTarget.value)} />
        ) : null}
        <input
          id={id}
          type="text"
          data-field={f.id}
          value={shown}
          {...(f.key === 'font_family' ? { list: `${id}-families`, autocomplete: 'off' } : {})}
          spellcheck={false}
          maxLength={f.maxLength}
          placeholder={f.widget === 'color' ? '#rrggbb' : undefined}
          aria-invalid={message ? 'true' : undefined}
          aria-describedby={message ? `${id}-msg` : undefined}
          onInput={(e) => onInput(e.currentTarget.value)}
          onBlur={() => setDraft((d) => (d?.problem ? d : null))}
        />
      </div>
      {f.key === 'font_family' ? <FamilyOptions id={`${id}-families`} search={shown} /> : null}
      <Message id={`${id}-msg`} text={message} />
    </div>
  );
}

const SOURCE_TEXT: Record<FontFamily['source'], string> = {
  library: "your account's font",
  bundled: 'bundled',
  installed: 'Google Fonts, installed',
  catalogue: 'Google Fonts, installed when used',
};

/**
 * The font picker's choices for a font_family field: the families the account's designs can use and,
 * as the person types, the Google Fonts catalogue's (GET /public/v2/fonts?search=), asked for a
 * quarter of a second after the typing stops so the rate limit is not spent on every key.
 */
export function FamilyOptions({ id, search }: { id: string; search: string }) {
  const { api } = useStudio();
  const [families, setFamilies] = useState<FontFamily[]>([]);
  const query = /^[A-Za-z0-9 ]{0,100}$/.test(search) ? search.trim() : '';
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.fontFamilies(query, controller.signal).then(setFamilies, () => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, query]);
  return (
    <datalist id={id} data-testid="font-families">
      {families.map((f) => (
        <option key={f.family} value={f.family} label={`${f.family} (${SOURCE_TEXT[f.source]})`} />
      ))}
    </datalist>
  );
}

function JsonField({ label, title, fieldId, value, overridden, error, set }: LeafProps & { label: string; title: string; fieldId: string }) {
  const id = useId();
  const [draft, setDraft] = useState<{ text: string; problem: string | null } | null>(null);
  const shown = draft?.text ?? (value === undefined ? '' : JSON.stringify(value));
  const onInput = (text: string) => {
    if (text.trim() === '') {
      setDraft({ text, problem: null });
      return set(undefined);
    }
    try {
      const v = JSON.parse(text) as Json;
      setDraft({ text, problem: null });
      set(v);
    } catch {
      setDraft({ text, problem: 'not valid JSON' });
    }
  };
  const message = draft?.problem ?? error;
  return (
    <div class={`field${overridden ? ' overridden' : ''}`}>
      <label for={id} title={title}>
        {label}
      </label>
      <textarea
        id={id}
        data-field={fieldId}
        rows={2}
        value={shown}
        spellcheck={false}
        aria-invalid={message ? 'true' : undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      <Message id={`${id}-msg`} text={message} />
    </div>
  );
}

/** A mockup's `mockup_data`: per layer, the layer's fields (image, colour, hidden) from the schema. */
function Layers(p: ListProps & { field: Extract<Field, { kind: 'layers' }> }) {
  const { field: f, onChange } = p;
  const [extra, setExtra] = useState<string[]>([]);
  const [newId, setNewId] = useState('');
  const addId = useId();
  const layers: Layer[] = [...p.layers, ...extra.filter((id) => !p.layers.some((l) => l.id === id)).map((id) => ({ id }))];
  const ids = layers.map((l) => l.id);
  // Layers the service listed with their kind are all there are; otherwise one may be added by id.
  const listed = p.layers.some((l) => l.kind !== undefined);
  return (
    <fieldset class="group layers">
      <legend title={fieldTitle(f.id, f.description)}>{fieldLabel(f.key)}</legend>
      {ids.length === 0 ? <p class="muted small">The service did not list this mockup's layers: add a layer by its id.</p> : null}
      {layers.map((layer) => (
        <fieldset key={layer.id} class="group layer">
          <legend>
            {layer.id}
            {layer.kind ? <span class="muted"> ({layer.kind})</span> : null}
          </legend>
          <FieldList {...p} fields={f.layer.filter((lf) => appliesTo(layer, lf)).map((lf) => relocate(lf, [...f.path, layer.id]))} onChange={onChange} />
        </fieldset>
      ))}
      {listed ? null : (
        <div class="inline">
          <label for={addId} class="small">
            Layer id
          </label>
          <input id={addId} type="text" value={newId} onInput={(e) => setNewId(e.currentTarget.value)} size={10} />
          <button
            type="button"
            disabled={!newId.trim() || ids.includes(newId.trim())}
            onClick={() => {
              setExtra([...extra, newId.trim()]);
              setNewId('');
            }}
          >
            Add layer
          </button>
        </div>
      )}
    </fieldset>
  );
}

/** A field of the layer schema placed under `mockup_data.<layer>`. */
function relocate(f: Field, parent: string[]): Field {
  const path = [...parent, ...f.path];
  const moved: Field = { ...f, path, id: path.join('.') };
  if (moved.kind === 'group') moved.fields = moved.fields.map((c) => relocate(c, parent));
  return moved;
}
