import { SheetBoxes } from "./SheetBoxes";
import { T } from "./messages";

/** A practice completamento answer in the boxes of the attempt's edition (see SheetBoxes). */
export function GapInput({
  value,
  onChange,
  disabled,
  questionNumber,
  boxes,
}: {
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  questionNumber: number;
  boxes: number;
}) {
  return (
    <SheetBoxes
      value={value}
      onChange={onChange}
      boxes={boxes}
      disabled={disabled}
      hint={T.gapHint}
      hintId={`gap-hint-${questionNumber}`}
      classes={{ group: "gap-boxes", box: "gap-box", count: "muted small gap-boxes-left" }}
    />
  );
}
