import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import { z, type ZodTypeAny } from "zod";
import { parseId } from "~/lib/ids";

/** The options of Conform's `submission.reply()` (hide a password, add a form-level error). */
type ReplyOptions = { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] };
type Replyable = { reply(options?: ReplyOptions): SubmissionResult<string[]> };

/**
 * The one answer to a form that did not parse (docs/architecture.md, "Forms"): 400, with
 * `submission.reply()` as `lastResult` for the form, beside whatever else the page needs to place it.
 * An unknown intent is answered the same way: every action's schema is a discriminated union on `intent`,
 * so an intent it does not name fails the parse like any invalid field (the reply names the `intent` field).
 */
export function invalidSubmission<Extra extends object = object>(
  submission: Replyable,
  extra?: Extra,
  options?: ReplyOptions,
) {
  return data({ ...(extra as Extra), lastResult: submission.reply(options) }, { status: 400 });
}

/**
 * A database id posted by a form: the one id rule of every page (`parseId`, app/lib/ids.ts: 1 to 12 digits, a
 * positive safe integer). A string schema, so Conform leaves the text as typed for `parseId` to judge.
 */
export const formId = z
  .string({ required_error: "Required", invalid_type_error: "Not an id" })
  .transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Not an id" });
      return z.NEVER;
    }
    return id;
  });

/** What `parseForm` gives back: Conform's submission, with a reply that echoes only the schema's fields. */
export type FormSubmission<S extends z.ZodTypeAny> = Submission<z.input<S>, string[], z.output<S>>;

/**
 * Conform's control fields. No form of the app sends them (it has no list, update or reset buttons), and
 * Conform throws on one that is not its JSON (`__intent__=x` was a reported 500), or applies one that names a path
 * (`{"type":"update","payload":{"name":"x[999999999]"}}` builds the list the body check refuses by name).
 */
const CONTROL_FIELDS = ["__intent__", "__state__"];

/**
 * The one way a server parses a form (or a query) with its Zod schema: Conform's `parseWithZod`, except that
 * - a form carrying a control field is parsed without it and fails (400 with the form kept, never a 500);
 * - `submission.reply()` echoes only the fields the schema names (`schemaFieldsOnly`), never a password, and
 *   never Conform's state or intent, so what a stranger posts beside the form never comes back.
 */
export function parseForm<S extends z.ZodTypeAny>(
  form: FormData | URLSearchParams,
  { schema }: { schema: S },
): FormSubmission<S> {
  const control = CONTROL_FIELDS.some((name) => form.has(name));
  const submission = parseWithZod(control ? withoutControlFields(form) : form, {
    schema,
  }) as FormSubmission<S>;
  const reply = (options?: ReplyOptions): SubmissionResult<string[]> => {
    const result = submission.reply(options);
    const safe: SubmissionResult<string[]> = {
      status: result.status,
      initialValue: result.initialValue && schemaFieldsOnly(result.initialValue, schema),
      error: result.error,
      fields: result.fields?.filter((name) => knowsField(schema, name)),
    };
    return control ? { ...safe, status: "error", error: safe.error ?? {} } : safe;
  };
  if (!control) return { ...submission, reply };
  return {
    status: "error",
    payload: submission.payload,
    error: submission.status === "success" ? {} : submission.error,
    reply,
  };
}

function withoutControlFields(form: FormData | URLSearchParams) {
  const copy = form instanceof URLSearchParams ? new URLSearchParams(form) : new FormData();
  if (copy instanceof FormData) for (const [name, value] of form) copy.append(name, value);
  for (const name of CONTROL_FIELDS) copy.delete(name);
  return copy;
}

/** A field never echoed back, whatever its schema: its value is a secret. */
const SECRET_FIELD = /password/i;

/** The shape a schema accepts: a leaf (one value), a list of shapes, or named fields. */
type Shape =
  { kind: "leaf" } | { kind: "list"; item: Shape } | { kind: "fields"; fields: Map<string, Shape> };
const LEAF: Shape = { kind: "leaf" };
const shapes = new WeakMap<z.ZodTypeAny, Shape>();

/** The fields a Zod schema names, through its wrappers, unions (every member's fields) and refinements. */
function shapeOf(schema: ZodTypeAny, depth = 0): Shape {
  const known = shapes.get(schema);
  if (known) return known;
  // Deeper than any form: read no further (and remember nothing, so a shallower use reads it whole).
  if (depth > 16) return LEAF;
  const shape = readShape(schema, depth + 1);
  shapes.set(schema, shape);
  return shape;
}

function readShape(schema: ZodTypeAny, depth: number): Shape {
  if (schema instanceof z.ZodEffects) return shapeOf(schema.innerType(), depth);
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodCatch ||
    schema instanceof z.ZodReadonly
  )
    return shapeOf(schema._def.innerType as z.ZodTypeAny, depth);
  if (schema instanceof z.ZodBranded) return shapeOf(schema.unwrap(), depth);
  if (schema instanceof z.ZodPipeline) return shapeOf(schema._def.in as z.ZodTypeAny, depth);
  if (schema instanceof z.ZodArray) return { kind: "list", item: shapeOf(schema.element, depth) };
  if (schema instanceof z.ZodObject) {
    const fields = new Map<string, Shape>();
    for (const [name, field] of Object.entries(schema.shape as z.ZodRawShape))
      fields.set(name, shapeOf(field, depth));
    return { kind: "fields", fields };
  }
  if (schema instanceof z.ZodDiscriminatedUnion || schema instanceof z.ZodUnion)
    return merge((schema.options as z.ZodTypeAny[]).map((option) => shapeOf(option, depth)));
  if (schema instanceof z.ZodIntersection)
    return merge([
      shapeOf(schema._def.left as z.ZodTypeAny, depth),
      shapeOf(schema._def.right as z.ZodTypeAny, depth),
    ]);
  return LEAF;
}

/** The fields of several schemas together (a union's members): a name any of them knows is known. */
function merge(options: Shape[]): Shape {
  const objects = options.filter((s): s is Extract<Shape, { kind: "fields" }> => s.kind === "fields");
  if (objects.length === 0) return options.find((s) => s.kind === "list") ?? LEAF;
  const fields = new Map<string, Shape>();
  for (const object of objects)
    for (const [name, shape] of object.fields) {
      const seen = fields.get(name);
      fields.set(name, seen ? merge([seen, shape]) : shape);
    }
  return { kind: "fields", fields };
}

/** Whether a posted field name (`building`, `a.b[0]`) starts with a field the schema names, and no secret. */
function knowsField(schema: ZodTypeAny, name: string) {
  const shape = shapeOf(schema);
  const first = /^[^.[]*/.exec(name)?.[0] ?? "";
  return shape.kind === "fields" && shape.fields.has(first) && !SECRET_FIELD.test(first);
}

/**
 * A reply's echoed values cut down to the schema's shape: a field the schema does not name, a secret, a list
 * where the schema has one value, or named fields where it has a list are all left out. A leaf keeps a string
 * or a list of strings (a field posted twice).
 */
export function schemaFieldsOnly(
  value: Record<string, unknown>,
  schema: ZodTypeAny,
): Record<string, SubmissionPayloadValue> | undefined {
  const kept = prune(value, shapeOf(schema));
  return kept !== undefined && !Array.isArray(kept) && typeof kept === "object" ? kept : undefined;
}

type SubmissionPayloadValue = string | SubmissionPayloadValue[] | { [name: string]: SubmissionPayloadValue };

function prune(value: unknown, shape: Shape): SubmissionPayloadValue | undefined {
  if (shape.kind === "leaf") {
    if (typeof value === "string") return value;
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
    return undefined;
  }
  if (shape.kind === "list") {
    if (!Array.isArray(value)) return prune(value, shape.item);
    const items: SubmissionPayloadValue[] = [];
    for (const item of value) {
      const kept = prune(item, shape.item);
      if (kept !== undefined) items.push(kept);
    }
    return items.length > 0 ? items : undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const out: Record<string, SubmissionPayloadValue> = {};
  for (const [name, fieldShape] of shape.fields) {
    if (SECRET_FIELD.test(name) || !Object.hasOwn(value, name)) continue;
    const kept = prune((value as Record<string, unknown>)[name], fieldShape);
    if (kept !== undefined) out[name] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
