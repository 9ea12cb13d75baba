// POST /api/admin/import-taxonomy: subjects → topics → sub-topics.
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AuditActor } from "../../audit.server";
import type { Db } from "../../db/client.server";
import { HttpError } from "../../errors.server";
import {
  type RowError,
  rowsFailed,
  issueText,
  type ImportBody,
  validateRows,
  jsonArray,
  jsonStatements,
  runBatch,
  maxId,
  posId,
  audit,
  jsonLabel,
  csvLabel,
} from "./common";

export const taxonomyNode = z.object({
  id: posId("id").optional(),
  name: z.string("nome mancante").trim().min(1, "nome mancante").max(120, "nome troppo lungo"),
});
export const taxonomySchema = taxonomyNode.extend({
  topics: z
    .array(
      taxonomyNode.extend({
        subtopics: z.array(taxonomyNode, "subtopics deve essere un elenco").optional().default([]),
      }),
      "topics deve essere un elenco",
    )
    .optional()
    .default([]),
});

/** POST /api/admin/import-taxonomy: subjects → topics → sub-topics; matched by id, else by name, else created. */
export async function importTaxonomy(db: Db, actor: AuditActor, body: ImportBody) {
  let subjectsIn: z.infer<typeof taxonomySchema>[];
  if (body.format === "csv") {
    // One row per path: subject_id?, subject, topic_id?, topic?, subtopic_id?, subtopic?
    const errors: RowError[] = [];
    const tree = new Map<string, z.infer<typeof taxonomySchema>>();
    body.rows.forEach((row, i) => {
      const parsed = z
        .object({
          subjectId: posId("subject_id").optional(),
          subject: z.string("nome della materia mancante").min(1).max(120, "nome troppo lungo"),
          topicId: posId("topic_id").optional(),
          topic: z.string().max(120, "nome troppo lungo").optional(),
          subtopicId: posId("subtopic_id").optional(),
          subtopic: z.string().max(120, "nome troppo lungo").optional(),
        })
        .refine((x) => !x.subtopic || x.topic, { message: "un sotto-argomento richiede l'argomento", path: ["topic"] })
        .safeParse(row);
      if (!parsed.success) {
        errors.push({ row: csvLabel(i), message: issueText(parsed.error) });
        return;
      }
      const x = parsed.data;
      const sKey = x.subjectId ? `#${x.subjectId}` : x.subject.toLowerCase();
      const s = tree.get(sKey) ?? { id: x.subjectId, name: x.subject, topics: [] };
      tree.set(sKey, s);
      if (!x.topic) return;
      let t = s.topics.find((t) => (x.topicId ? t.id === x.topicId : t.name.toLowerCase() === x.topic!.toLowerCase()));
      if (!t) s.topics.push((t = { id: x.topicId, name: x.topic, subtopics: [] }));
      if (
        x.subtopic &&
        !t.subtopics.some((st) =>
          x.subtopicId ? st.id === x.subtopicId : st.name.toLowerCase() === x.subtopic!.toLowerCase(),
        )
      ) {
        t.subtopics.push({ id: x.subtopicId, name: x.subtopic });
      }
    });
    if (errors.length) rowsFailed(errors);
    subjectsIn = [...tree.values()];
  } else {
    const v = validateRows(jsonArray(body.data, "subjects", "materie"), taxonomySchema, jsonLabel("subjects"));
    if (v.errors.length) rowsFailed(v.errors);
    subjectsIn = v.ok;
  }
  if (!subjectsIn.length) throw new HttpError(400, "Nessuna materia da importare.");

  const existingSubjects = await db.all<{ id: number; name: string }>(sql`SELECT id, name FROM subjects`);
  const existingTopics = await db.all<{ id: number; subject_id: number; parent_id: number | null; name: string }>(
    sql`SELECT id, subject_id, parent_id, name FROM topics`,
  );
  let nextSubject = (await maxId(db, "subjects")) + 1;
  let nextTopic = (await maxId(db, "topics")) + 1;
  const subjectRows: { id: number; n: string }[] = [];
  const topicRows: { id: number; s: number; p: number | null; n: string }[] = [];
  const errors: RowError[] = [];
  const seenTopicIds = new Set<number>();
  let importedTopics = 0;
  let importedSubtopics = 0;
  const topicById = new Map(existingTopics.map((t) => [t.id, t]));
  const resolveTopic = (
    id: number | undefined,
    name: string,
    subjectId: number,
    parentId: number | null,
    where: string,
  ) => {
    if (id !== undefined) {
      const existing = topicById.get(id);
      if (existing && (existing.subject_id !== subjectId || (existing.parent_id ?? null) !== parentId)) {
        errors.push({
          row: where,
          message: `l'argomento ${id} esiste già sotto un'altra materia o un altro argomento`,
        });
      }
      if (seenTopicIds.has(id)) errors.push({ row: where, message: `id argomento ${id} ripetuto nel file` });
      seenTopicIds.add(id);
      nextTopic = Math.max(nextTopic, id + 1);
      return id;
    }
    const byName = existingTopics.find(
      (t) =>
        t.subject_id === subjectId && (t.parent_id ?? null) === parentId && t.name.toLowerCase() === name.toLowerCase(),
    );
    return byName?.id ?? nextTopic++;
  };
  subjectsIn.forEach((s, si) => {
    const subjectId =
      s.id ?? existingSubjects.find((x) => x.name.toLowerCase() === s.name.toLowerCase())?.id ?? nextSubject++;
    if (s.id) nextSubject = Math.max(nextSubject, s.id + 1);
    subjectRows.push({ id: subjectId, n: s.name });
    s.topics.forEach((t, ti) => {
      const topicId = resolveTopic(t.id, t.name, subjectId, null, `subjects[${si}].topics[${ti}]`);
      topicRows.push({ id: topicId, s: subjectId, p: null, n: t.name });
      importedTopics++;
      t.subtopics.forEach((st, sti) => {
        const subId = resolveTopic(
          st.id,
          st.name,
          subjectId,
          topicId,
          `subjects[${si}].topics[${ti}].subtopics[${sti}]`,
        );
        topicRows.push({ id: subId, s: subjectId, p: topicId, n: st.name });
        importedSubtopics++;
      });
    });
  });
  if (new Set(subjectRows.map((s) => s.id)).size !== subjectRows.length)
    errors.push({ row: "subjects", message: "la stessa materia compare due volte nel file" });
  if (errors.length) rowsFailed(errors);
  const result = { importedSubjects: subjectRows.length, importedTopics, importedSubtopics };
  await runBatch(db, [
    ...jsonStatements(
      db,
      subjectRows,
      (
        json,
      ) => sql`INSERT INTO subjects (id, name) SELECT json_extract(value, '$.id'), json_extract(value, '$.n') FROM json_each(${json}) WHERE true
        ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
    ),
    ...jsonStatements(
      db,
      topicRows,
      (json) => sql`INSERT INTO topics (id, subject_id, parent_id, name)
        SELECT json_extract(value, '$.id'), json_extract(value, '$.s'), json_extract(value, '$.p'), json_extract(value, '$.n') FROM json_each(${json}) WHERE true
        ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
    ),
    audit(db, actor, "import.taxonomy", result),
  ]);
  return result;
}
