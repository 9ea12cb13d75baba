// The dashboard's guided tour (spec: 10 steps, Escape closes, arrow keys move, last step 'Fine',
// tooltip width 340) on driver.js, loaded only when 'Guida' is pressed.
import { TOUR_TOOLTIP_WIDTH } from "~/lib/constants";
import "driver.js/dist/driver.css";
import "~/styles/tour.css";

export const TOUR_STEPS: { target: string; title: string; text: string }[] = [
  {
    target: "subject",
    title: "Materia e sotto-argomento",
    text: "Scegli la materia e, se vuoi, un sotto-argomento: tutta la dashboard si aggiorna.",
  },
  {
    target: "preparation",
    title: "Livello di preparazione",
    text: "Il tuo punteggio medio in percentuale sui 31 punti: sopra l'80% la preparazione è alta.",
  },
  {
    target: "average",
    title: "Punt. medio & mediana",
    text: "Media e mediana dei tuoi punteggi su 31: la mediana non si lascia influenzare da un test andato male.",
  },
  {
    target: "accuracy",
    title: "Accuratezza & tempo",
    text: "Quante risposte giuste dai e quanti secondi impieghi in media per domanda.",
  },
  {
    target: "coverage",
    title: "Copertura argomenti",
    text: "Quanti argomenti della materia hai già incontrato nei tuoi test.",
  },
  {
    target: "last",
    title: "Ultima simulazione",
    text: "Quanti giorni sono passati dal tuo ultimo test in questa materia.",
  },
  {
    target: "momentum",
    title: "Momentum (ultimi 3)",
    text: "La media degli ultimi 3 test confrontata con i 3 precedenti: ti dice se stai migliorando.",
  },
  {
    target: "trend",
    title: "Andamento simulazioni",
    text: "Il punteggio di ogni test nel tempo, con la media del sito tratteggiata e, se attivo, il tuo amico.",
  },
  {
    target: "distribution",
    title: "Distribuzione punteggi",
    text: "Come si distribuiscono i punteggi di tutti gli studenti, con la soglia del Top 20% e la tua posizione.",
  },
  {
    target: "topics",
    title: "Accuratezza per argomento",
    text: "La tua accuratezza per argomento accanto a quella del sito: sotto il 60% conviene ripassare.",
  },
];

export type TourHandle = { destroy: () => void };

export async function startTour(onClose?: () => void): Promise<TourHandle> {
  const { driver } = await import("driver.js");
  const tour = driver({
    showProgress: true,
    progressText: "Passo {{current}} di {{total}}",
    nextBtnText: "Avanti",
    prevBtnText: "Indietro",
    doneBtnText: "Fine",
    allowKeyboardControl: true,
    allowClose: true,
    // The highlight glides between steps, unless the visitor asked for reduced motion.
    animate: !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches,
    overlayOpacity: 0.6,
    stagePadding: 6,
    popoverClass: "unicum-tour",
    steps: TOUR_STEPS.map((step) => ({
      element: `[data-tour="${step.target}"]`,
      popover: { title: step.title, description: step.text },
    })),
    onPopoverRender(popover) {
      popover.wrapper.style.width = `${TOUR_TOOLTIP_WIDTH}px`;
      popover.wrapper.setAttribute("aria-modal", "true");
      popover.closeButton.setAttribute("aria-label", "Chiudi la guida");
      popover.closeButton.setAttribute("title", "Chiudi la guida (Esc)");
      popover.description.setAttribute("aria-live", "polite");
      // Keyboard and screen-reader users land on the popover, on its main button.
      requestAnimationFrame(() => popover.nextButton.focus());
    },
    onDestroyed() {
      onClose?.();
    },
  });
  tour.drive();
  return tour;
}
