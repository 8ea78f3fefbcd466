// The subset of JSON Schema (draft 2020-12) that the service's override schemas use, as produced by
// zod's toJSONSchema from each object type's override schema (GET /public/v2/designs/<id> sends it
// per object as `override_schema`). Types only.

export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  description?: string;
  examples?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  not?: JsonSchema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
}
