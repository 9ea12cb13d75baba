// Italian validation messages, shared by the server (JSON calls, route actions) and the forms in the browser.
// A schema gets its field labels with withLabels; an issue becomes one sentence naming the field as the screen does.
import type { input, ZodError, ZodType } from "zod";

/** A schema's field names as the screen shows them, by path (nested parts joined with "."; list indexes left out). */
export type FieldLabels = Readonly<Record<string, string>>;

type ZodIssueLike = ZodError["issues"][number];

const SCHEMA_LABELS = new WeakMap<object, FieldLabels>();

/**
 * Gives a schema its label map, so its validation errors name fields as the screen does ("Data di nascita",
 * "CAP"), never by code name. The type asks for a label for every top-level field of the input.
 */
export function withLabels<S extends ZodType>(
  schema: S,
  labels: Record<Extract<keyof NonNullable<input<S>>, string>, string> & FieldLabels,
): S {
  SCHEMA_LABELS.set(schema, labels);
  return schema;
}

/**
 * A schema built by extending `parent` (an action's envelope around a form's schema: its `intent`, the id of the row
 * it writes) keeps the parent's labels; `labels` names the fields it adds.
 */
export function withParentLabels<S extends ZodType>(schema: S, parent: ZodType, labels: FieldLabels): S {
  SCHEMA_LABELS.set(schema, { ...labelsOf(parent), ...labels });
  return schema;
}

export function labelsOf(schema: ZodType): FieldLabels {
  return SCHEMA_LABELS.get(schema) ?? {};
}

/** The label of an issue's field: the longest labelled prefix of its path, and the item's number in a list. */
function fieldLabel(path: readonly PropertyKey[], labels: FieldLabels): string | null {
  const keys = path.filter((p): p is string => typeof p === "string" && !/^\d+$/.test(p));
  const index = path.find((p) => typeof p === "number" || (typeof p === "string" && /^\d+$/.test(p)));
  for (let n = keys.length; n > 0; n--) {
    const label = labels[keys.slice(0, n).join(".")];
    if (label) return typeof index === "number" ? `${label} n. ${index + 1}` : label;
  }
  return null;
}

/** zod's English default messages are replaced by these Italian ones (a schema's own message wins). */
function genericMessage(issue: ZodIssueLike, field: string | null): string {
  const name = field ? `"${field}"` : "";
  const subject = field ? `Il campo ${name}` : "Un campo";
  switch (issue.code) {
    case "invalid_type":
      // zod leaves the input out of an issue; its English message says "received undefined" for a missing field.
      return /received undefined/.test(issue.message)
        ? `${subject} è obbligatorio.`
        : `${subject} ha un tipo di valore non valido.`;
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `${subject} è troppo lungo (massimo ${max} caratteri).`;
      if (issue.origin === "array" || issue.origin === "set") return `${subject} ha troppi elementi (massimo ${max}).`;
      return `${subject} deve essere al massimo ${max}.`;
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string")
        return min <= 1 ? `${subject} non può essere vuoto.` : `${subject} è troppo corto (minimo ${min} caratteri).`;
      if (issue.origin === "array" || issue.origin === "set")
        return `${subject} ha troppo pochi elementi (minimo ${min}).`;
      return `${subject} deve essere almeno ${min}.`;
    }
    case "invalid_value":
      return `${subject} ha un valore non ammesso.`;
    case "unrecognized_keys":
      return "La richiesta contiene campi non previsti.";
    default:
      return field ? `Valore non valido per il campo ${name}.` : "Dati non validi.";
  }
}

/** Turns a zod failure into one readable Italian sentence naming the field as the screen does. */
export function zodMessage(error: ZodError, labels: FieldLabels = {}): string {
  const issue = error.issues[0];
  return issue ? issueMessage(issue, labels) : "Dati non validi.";
}

/** One issue as an Italian sentence (a schema's own message wins over zod's English default). */
export function issueMessage(issue: ZodIssueLike, labels: FieldLabels = {}): string {
  const field = fieldLabel(issue.path, labels);
  // Schemas carry Italian messages; zod's own English defaults are replaced by a generic one.
  const own =
    issue.message && !/^(Invalid|Expected|Too|Unrecognized|Required)/i.test(issue.message) ? issue.message : null;
  if (!own) return genericMessage(issue, field);
  return field && !own.toLowerCase().includes(field.toLowerCase()) ? `${own} (campo: ${field})` : own;
}
