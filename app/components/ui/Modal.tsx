import { useId } from "react";
import { useFocusTrap } from "~/lib/use-focus-trap";

/** A dialog that traps focus, closes on Escape and on the backdrop, and restores focus after. */
export function Modal(props: {
  title: string;
  onClose: () => void;
  children: React.ReactNode;
  maxWidth?: number;
  footer?: React.ReactNode;
}) {
  const titleId = useId();
  const ref = useFocusTrap<HTMLDivElement>(true, props.onClose);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a mouse shortcut; Escape closes the dialog (useFocusTrap)
    <div className="modal" onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div
        className="modal__card"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={ref}
        style={{ maxWidth: props.maxWidth ?? 640 }}
      >
        <div className="modal__head">
          <h2 id={titleId}>{props.title}</h2>
          <button type="button" className="btn btn--ghost" onClick={props.onClose} aria-label="Chiudi">
            ✕
          </button>
        </div>
        <div className="modal__body">{props.children}</div>
        {props.footer ? <div className="modal__foot">{props.footer}</div> : null}
      </div>
    </div>
  );
}
