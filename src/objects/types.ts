// The names of the object types, in the order of the published schemas and the field reference. It
// imports nothing, so the HTTP schemas and the Studio's browser code name the types without loading a
// handler; the registry's table (registry.ts) is keyed by this list and the compiler holds the two together.
export const OBJECT_TYPES = ['text', 'image', 'shape', 'chart', 'mockup', 'video', 'svg', 'line'] as const;

export type ObjectType = (typeof OBJECT_TYPES)[number];
