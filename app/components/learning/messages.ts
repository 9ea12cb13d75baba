// Every Italian string of the learning engine's UI (review of the day, forecast, Test mirato).
export const L = {
  reviewOfTheDay: "Ripasso del giorno",
  reviewCount: (n: number) => `${n} ${n === 1 ? "domanda" : "domande"}`,
  reviewOfTheDayLine: (n: number) => `Ripasso del giorno: ${n} ${n === 1 ? "domanda" : "domande"}`,
  reviewNone: "Niente da ripassare oggi: torna domani.",
  reviewGo: "Vai al ripasso",
  reviewStart: (n: number) => `Avvia il ripasso (${n} ${n === 1 ? "domanda" : "domande"})`,
  reviewHint: "Le domande che rischi di dimenticare, dalla più in ritardo: sbagliate ieri, o giuste da qualche giorno.",
  forecastTitle: "Previsione punteggio",
  forecastOn: (n: number) => `su ${n} ${n === 1 ? "risposta" : "risposte"}`,
  forecastRange: (low: string, high: string) => `tra ${low} e ${high}`,
  forecastPass: (percent: number) => `probabilità di 18 o più: ${percent} %`,
  forecastSection: (section: number, percent: number) =>
    section > 0
      ? `Fascia di graduatoria più probabile: ${section} (${section === 300 ? "tre" : section === 200 ? "due" : "un"} ${section === 100 ? "esame superato" : "esami superati"}), ${percent} %`
      : `Esito più probabile: nessun esame superato (${percent} %): continua ad allenarti`,
  forecastNeedMore: (n: number, min: number) => `Servono almeno ${min} risposte (finora ${n})`,
  forecastExplain:
    "Il punteggio atteso se l'esame fosse oggi (31 domande: +1 giusta, 0 non data, −0,1 sbagliata), stimato dalle tue risposte per argomento, con più peso a quelle recenti. Nell'intervallo cade il valore vero 8 volte su 10.",
  modeLabel: "Modalità",
  modeRandom: "Casuale",
  modeTargeted: "Mirato",
  modeTargetedHint: "Mirato: più domande dagli argomenti in cui sbagli, da ripassare oggi e mai viste.",
} as const;
