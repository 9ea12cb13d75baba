// The 'Materia' and 'Sotto-argomento' pickers of /dashboard, /test/nuovo and /ripasso/errori.
// Picking a subject also clears the sub-topic: the sub-topics listed belong to the subject.
import { useId } from "react";
import { T } from "~/components/quiz/messages";

export type PickerOption = { id: number; name: string };

const toId = (value: string) => (value ? Number(value) : null);

export function SubjectTopicPicker(props: {
  subjects: PickerOption[];
  /** The sub-topics of the selected subject. */
  topics: PickerOption[];
  subjectId: number | null;
  topicId: number | null;
  onChange: (subjectId: number | null, topicId: number | null) => void;
  /** Text of the empty subject option; without it one subject is always selected. */
  noSubject?: string;
  topicDisabled?: boolean;
}) {
  const subjectField = useId();
  const topicField = useId();
  return (
    <>
      <div className="field">
        <label htmlFor={subjectField}>{T.subject}</label>
        <select
          id={subjectField}
          className="select"
          value={props.subjectId ?? ""}
          onChange={(e) => props.onChange(toId(e.target.value), null)}
        >
          {props.noSubject !== undefined ? <option value="">{props.noSubject}</option> : null}
          {props.subjects.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={topicField}>{T.topic}</label>
        <select
          id={topicField}
          className="select"
          value={props.topicId ?? ""}
          disabled={props.topicDisabled}
          onChange={(e) => props.onChange(props.subjectId, toId(e.target.value))}
        >
          <option value="">{T.allTopics}</option>
          {props.topics.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
