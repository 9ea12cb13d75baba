// The accommodation picker (issue 29): "Nessuna", "+30 % (DSA)", "+50 % (disabilità)" or another whole percentage
// 0-100. Used by the admin's user dialog and the teacher's class dialog; the server checks the value again (zod).
import { useId, useState } from "react";
import { EXTRA_TIME_CHOICES, EXTRA_TIME_MAX, EXTRA_TIME_TEXT } from "~/lib/simulation-day";

const isPreset = (pct: number) => EXTRA_TIME_CHOICES.some((c) => c.value === pct);

export function ExtraTimePicker({
  value,
  onChange,
  label = EXTRA_TIME_TEXT.label,
  disabled,
}: {
  value: number;
  onChange: (pct: number) => void;
  label?: string;
  disabled?: boolean;
}) {
  const [custom, setCustom] = useState(!isPreset(value));
  const id = useId();
  return (
    <span className="extra-time-picker">
      <select
        id={id}
        aria-label={label}
        value={custom ? "custom" : String(value)}
        disabled={disabled}
        onChange={(e) => {
          if (e.target.value === "custom") {
            setCustom(true);
            return;
          }
          setCustom(false);
          onChange(Number(e.target.value));
        }}
      >
        {EXTRA_TIME_CHOICES.map((c) => (
          <option key={c.value} value={String(c.value)}>
            {c.label}
          </option>
        ))}
        <option value="custom">{EXTRA_TIME_TEXT.custom}</option>
      </select>
      {custom ? (
        <input
          type="number"
          min={0}
          max={EXTRA_TIME_MAX}
          step={1}
          aria-label={`${label} (%)`}
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(Math.round(Number(e.target.value) || 0))}
        />
      ) : null}
    </span>
  );
}
