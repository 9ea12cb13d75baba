import { useRef } from "react";
import { gapBoxesLeft, pastedGapText } from "~/lib/gap-answer";
import { T } from "./messages";

/**
 * A completamento answer as on the real answer sheet (issue 29, point 4): the edition's boxes (16 on the 2025
 * sheet), one character a box, shown in block capitals, with the boxes left counting down. Typing moves to the
 * next box, Backspace on an empty box clears the previous one, pasting strips whitespace and fills from the
 * focused box up to the last box. The answer is stored lowercased (grading ignores case); a blank box inside the
 * word is a space. Used by the practice runner and the simulation runner.
 */
export function SheetBoxes({
  value,
  onChange,
  boxes,
  disabled,
  hint,
  hintId,
  classes,
}: {
  value: string;
  onChange: (v: string) => void;
  /** The edition's boxes (format.gapBoxes). */
  boxes: number;
  disabled?: boolean;
  hint: string;
  hintId: string;
  classes: { group: string; box: string; count: string };
}) {
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const chars = Array.from({ length: boxes }, (_, i) => value[i] ?? "");
  const left = gapBoxesLeft(value.slice(0, boxes), boxes);
  const countId = `${hintId}-count`;
  const focus = (i: number) => refs.current[Math.max(0, Math.min(boxes - 1, i))]?.focus();
  const emit = (next: string[]) => onChange(next.join("").replace(/\s+$/, "").toLowerCase());
  const setAt = (i: number, ch: string) => {
    const next = [...chars];
    // Keep positions: a blank box inside the word is a space.
    for (let k = 0; k < i; k++) if (!next[k]) next[k] = " ";
    next[i] = ch;
    emit(next);
  };
  return (
    <div className="practice-stack">
      <p className="muted small" id={hintId} style={{ margin: 0 }}>
        {hint} {T.gapSheetRule}
      </p>
      <div className={classes.group} role="group" aria-labelledby={hintId} aria-describedby={countId}>
        {chars.map((ch, i) => {
          const shown = ch === " " ? "" : ch.toLocaleUpperCase("it-IT");
          return (
            <input
              key={i}
              ref={(el) => {
                refs.current[i] = el;
              }}
              className={classes.box}
              type="text"
              inputMode="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={2}
              disabled={disabled}
              aria-label={T.gapBoxLabel(i + 1, boxes)}
              value={shown.length === 1 ? shown : ch}
              onFocus={(e) => e.currentTarget.select()}
              onChange={(e) => {
                const typedRaw = e.target.value;
                // The new character is the one that is not the box's old one (the caret may sit before or after it).
                const typed = (
                  typedRaw.length > 1 && typedRaw[0]!.toLowerCase() !== shown.toLowerCase()
                    ? typedRaw[0]!
                    : typedRaw.slice(-1)
                ).toLowerCase();
                if (!typed.trim()) return setAt(i, " ");
                setAt(i, typed);
                if (i + 1 < boxes) focus(i + 1);
              }}
              onKeyDown={(e) => {
                if (e.key === "Backspace" && !shown) {
                  e.preventDefault();
                  if (i > 0) {
                    setAt(i - 1, " ");
                    focus(i - 1);
                  }
                } else if (e.key === "ArrowLeft") {
                  e.preventDefault();
                  focus(i - 1);
                } else if (e.key === "ArrowRight") {
                  e.preventDefault();
                  focus(i + 1);
                }
              }}
              onPaste={(e) => {
                e.preventDefault();
                const text = pastedGapText(e.clipboardData.getData("text"), boxes - i);
                if (!text) return;
                const next = [...chars];
                for (let k = 0; k < i; k++) if (!next[k]) next[k] = " ";
                next.splice(i, text.length, ...text.split(""));
                emit(next.slice(0, boxes));
                setTimeout(() => focus(i + text.length));
              }}
            />
          );
        })}
      </div>
      <p className={classes.count} id={countId} data-testid="gap-boxes-left" data-left={left}>
        {T.gapBoxesLeft(left, boxes)}
      </p>
    </div>
  );
}
