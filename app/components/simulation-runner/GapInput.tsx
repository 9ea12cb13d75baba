import { SheetBoxes } from "~/components/quiz/SheetBoxes";
import { T } from "./texts";

/** A simulation completamento answer in the boxes of the simulation's edition (see SheetBoxes). */
export function GapInput({
  value,
  onChange,
  disabled,
  questionId,
  boxes,
}: {
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  questionId: number;
  boxes: number;
}) {
  return (
    <div className="sim-gap">
      <SheetBoxes
        value={value}
        onChange={onChange}
        boxes={boxes}
        disabled={disabled}
        hint={T.gapHint}
        hintId={`gap-hint-${questionId}`}
        classes={{ group: "sim-gap__boxes", box: "sim-gap__box", count: "muted small sim-gap__left" }}
      />
    </div>
  );
}
